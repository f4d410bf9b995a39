module github.com/tenferro-go/tenferro

go 1.26.0

require golang.org/x/sys v0.50.0

require gonum.org/v1/gonum v0.17.0

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0
)

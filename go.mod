module github.com/tenferro-go/tenferro

go 1.26

package program

// SetTileRows makes every tiled command use blocks of rows rows (0: the
// default sizing), so that tests tile small programs; it returns a
// function restoring the default.
func SetTileRows(rows int) (restore func()) {
	old := forcedTileRows
	forcedTileRows = rows
	return func() { forcedTileRows = old }
}

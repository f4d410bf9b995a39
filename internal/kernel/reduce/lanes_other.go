//go:build !amd64 || purego

package reduce

// bestImpl: this build has no assembly.
const bestImpl = implGo

func archSumBlock64([]float64, *[32]float64) (float64, bool)          { return 0, false }
func archSumBlock32([]float32, *[64]float32) (float32, bool)          { return 0, false }
func archSsqBlock64([]float64, *[32]float64, float64) (float64, bool) { return 0, false }
func archSsqBlock32([]float32, *[32]float32, float64) (float64, bool) { return 0, false }
func archExt64(extKind, *[8]float64, []float64) int                   { return 0 }
func archExt32(extKind, *[16]float32, []float32) int                  { return 0 }

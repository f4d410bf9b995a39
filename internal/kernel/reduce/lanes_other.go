//go:build !amd64 || purego

package reduce

// bestImpl: this build has no assembly.
const bestImpl = implGo

func archSumAcc64(*[32]float64, []float64) int          { return 0 }
func archSumAcc32(*[64]float32, []float32) int          { return 0 }
func archSsqAcc64(*[32]float64, []float64, float64) int { return 0 }
func archSsqAcc32(*[32]float64, []float32, float64) int { return 0 }
func archExt64(extKind, *[8]float64, []float64) int     { return 0 }
func archExt32(extKind, *[16]float32, []float32) int    { return 0 }

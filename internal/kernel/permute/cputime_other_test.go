//go:build !linux

package permute

import "time"

func threadCPU() time.Duration { return 0 }

const haveThreadCPU = false

package permute

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time consumed by the calling OS thread (the
// caller holds runtime.LockOSThread). On a shared, oversubscribed machine it
// excludes the time the thread waited for a core, which wall time does not.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const haveThreadCPU = true

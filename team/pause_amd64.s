//go:build amd64 && !purego

#include "textflag.h"

// func spinPause(n uint32)
TEXT ·spinPause(SB), NOSPLIT|NOFRAME, $0-4
	MOVL n+0(FP), AX
loop:
	PAUSE
	DECL AX
	JNZ  loop
	RET

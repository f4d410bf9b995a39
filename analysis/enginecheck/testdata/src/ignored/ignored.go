package ignored

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func work(e tf.Engine) {}

// The directive on the line, or on the line above, silences the report.
func onPurpose(n int) {
	for i := 0; i < n; i++ {
		e := cpu.Serial() //tenferrovet:ignore this loop measures a fresh engine
		work(e)
		e.Close()
	}
	for i := 0; i < n; i++ {
		//tenferrovet:ignore this loop measures a fresh engine
		e := cpu.Serial()
		work(e)
		e.Close()
	}
}

// A directive two lines above, or one without a reason, does not.
func notSilenced(n int) {
	for i := 0; i < n; i++ {
		//tenferrovet:ignore too far away

		e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration of this loop`
		work(e)
		e.Close()
	}
	for i := 0; i < n; i++ {
		e := cpu.Serial() //tenferrovet:ignore // want `needs a reason` `cpu.Serial builds an engine on every iteration`
		work(e)
		e.Close()
	}
}

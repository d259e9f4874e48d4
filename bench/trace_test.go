package bench

import (
	"testing"

	"github.com/hqpack/hqpack/bench/trace"
)

// The trace benchmarks: whole connections of real header lists from the
// public corpora, one iteration a whole trace, ns/list reported (package
// trace says what each runs). interop/ runs the same ones with nghttp2's
// and nghttp3's rows added.

func BenchmarkHPACKTraceEncode(b *testing.B) { trace.HPACKEncode(b) }

func BenchmarkHPACKTraceDecode(b *testing.B) { trace.HPACKDecode(b) }

func BenchmarkQPACKTraceEncode(b *testing.B) { trace.QPACKEncode(b) }

func BenchmarkQPACKTraceDecode(b *testing.B) { trace.QPACKDecode(b) }

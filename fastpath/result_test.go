package fastpath

import "testing"

func TestResultIndexingString(t *testing.T) {
	for v, want := range map[interface{ String() string }]string{
		Done: "Done", MoreFields: "MoreFields", BufferTooSmall: "BufferTooSmall", NoSection: "NoSection", Result(9): "Result(?)",
		IndexDefault: "IndexDefault", IndexAll: "IndexAll", IndexNone: "IndexNone", Indexing(9): "Indexing(?)",
	} {
		if got := v.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", v, got, want)
		}
	}
}

package fastpath

import (
	"testing"

	"github.com/hqpack/hqpack/internal/static"
)

// The public lookups are the static package's, with its "none".
func TestLookupField(t *testing.T) {
	for _, c := range []struct {
		name string
		want FieldID
	}{
		{":path", static.Path},
		{"content-length", static.ContentLength},
		{"www-authenticate", static.WWWAuthenticate},
		{"Content-Length", NoField},
		{"x-custom", NoField},
		{"", NoField},
	} {
		if got := LookupField(c.name); got != c.want {
			t.Errorf("LookupField(%q) = %v, want %v", c.name, got, c.want)
		}
		if got := LookupFieldBytes([]byte(c.name)); got != c.want {
			t.Errorf("LookupFieldBytes(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	if id := LookupField(":status"); id.Name() != ":status" || !id.IsPseudo() || id.HPACKIndex() != 8 || id.QPACKIndex() != 24 {
		t.Errorf(":status: %v name %q pseudo %v indices %d %d", id, id.Name(), id.IsPseudo(), id.HPACKIndex(), id.QPACKIndex())
	}
	if NoField != static.None || MaxFieldID != static.MaxFieldID {
		t.Errorf("NoField %v, MaxFieldID %v", NoField, MaxFieldID)
	}
}

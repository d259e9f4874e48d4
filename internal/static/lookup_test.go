package static_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/internal/static"
)

// ref is the tables read back through HPACK and QPACK (which the peer
// tests check), kept in maps: the obvious implementation to compare with.
type ref struct {
	hpackExact, qpackExact map[[2]string]int
	hpackName, qpackName   map[string]int // lowest index
	ids                    map[string]static.FieldID
}

func newRef(t testing.TB) *ref {
	r := &ref{
		hpackExact: map[[2]string]int{}, qpackExact: map[[2]string]int{},
		hpackName: map[string]int{}, qpackName: map[string]int{},
		ids: map[string]static.FieldID{},
	}
	for i := uint64(1); i <= static.HPACKLen; i++ {
		e, ok := static.HPACK(i)
		if !ok {
			t.Fatalf("HPACK(%d) not ok", i)
		}
		r.hpackExact[[2]string{e.Name, e.Value}] = int(i)
		if _, ok := r.hpackName[e.Name]; !ok {
			r.hpackName[e.Name] = int(i)
		}
		r.ids[e.Name] = e.ID
	}
	for i := uint64(0); i < static.QPACKLen; i++ {
		e, ok := static.QPACK(i)
		if !ok {
			t.Fatalf("QPACK(%d) not ok", i)
		}
		r.qpackExact[[2]string{e.Name, e.Value}] = int(i)
		if _, ok := r.qpackName[e.Name]; !ok {
			r.qpackName[e.Name] = int(i)
		}
		if id, ok := r.ids[e.Name]; ok && id != e.ID {
			t.Fatalf("%q is %v in HPACK, %v in QPACK", e.Name, id, e.ID)
		}
		r.ids[e.Name] = e.ID
	}
	return r
}

// check compares every lookup of (name, value) with the reference.
func (r *ref) check(name, value string) error {
	he, hn := static.LookupHPACK(name, value)
	qe, qn := static.LookupQPACK(name, value)
	got := [6]int{he, hn, qe, qn, int(static.Lookup(name)), int(static.LookupBytes([]byte(name)))}
	want := [6]int{-1, -1, -1, -1, 0, 0}
	if i, ok := r.hpackExact[[2]string{name, value}]; ok {
		want[0] = i
	}
	if i, ok := r.hpackName[name]; ok {
		want[1] = i
	}
	if i, ok := r.qpackExact[[2]string{name, value}]; ok {
		want[2] = i
	}
	if i, ok := r.qpackName[name]; ok {
		want[3] = i
	}
	want[4] = int(r.ids[name])
	want[5] = want[4]
	if want != got {
		return fmt.Errorf("(%q, %q): [hpack exact, name; qpack exact, name; Lookup; LookupBytes] (-want +got):\n%s", name, value, cmp.Diff(want, got))
	}
	return nil
}

func TestEntriesRoundTrip(t *testing.T) {
	r := newRef(t)
	for i := uint64(1); i <= static.HPACKLen; i++ {
		e, _ := static.HPACK(i)
		exact, name := static.LookupHPACK(e.Name, e.Value)
		if exact != int(i) || name != r.hpackName[e.Name] || name > exact {
			t.Errorf("LookupHPACK(%q, %q) = %d, %d; want %d, %d", e.Name, e.Value, exact, name, i, r.hpackName[e.Name])
		}
		if err := r.check(e.Name, e.Value); err != nil {
			t.Error(err)
		}
	}
	for i := uint64(0); i < static.QPACKLen; i++ {
		e, _ := static.QPACK(i)
		exact, name := static.LookupQPACK(e.Name, e.Value)
		if exact != int(i) || name != r.qpackName[e.Name] || name > exact {
			t.Errorf("LookupQPACK(%q, %q) = %d, %d; want %d, %d", e.Name, e.Value, exact, name, i, r.qpackName[e.Name])
		}
		if err := r.check(e.Name, e.Value); err != nil {
			t.Error(err)
		}
	}
}

func TestFieldIDs(t *testing.T) {
	r := newRef(t)
	if len(r.ids) != int(static.MaxFieldID) {
		t.Errorf("%d distinct names, MaxFieldID = %d", len(r.ids), static.MaxFieldID)
	}
	seen := map[static.FieldID]string{}
	for name, id := range r.ids {
		if id == static.None || id > static.MaxFieldID {
			t.Errorf("%q has FieldID %d", name, id)
		}
		if other, ok := seen[id]; ok {
			t.Errorf("%q and %q share FieldID %d", name, other, id)
		}
		seen[id] = name
		if got := static.Lookup(name); got != id {
			t.Errorf("Lookup(%q) = %v, want %v", name, got, id)
		}
		if got := id.Name(); got != name {
			t.Errorf("%v.Name() = %q, want %q", id, got, name)
		}
		wantH, ok := r.hpackName[name]
		if !ok {
			wantH = -1
		}
		if got := id.HPACKIndex(); got != wantH {
			t.Errorf("%v.HPACKIndex() = %d, want %d", id, got, wantH)
		}
		wantQ, ok := r.qpackName[name]
		if !ok {
			wantQ = -1
		}
		if got := id.QPACKIndex(); got != wantQ {
			t.Errorf("%v.QPACKIndex() = %d, want %d", id, got, wantQ)
		}
		if got, want := id.IsPseudo(), strings.HasPrefix(name, ":"); got != want {
			t.Errorf("%v.IsPseudo() = %v, want %v", id, got, want)
		}
	}
}

func TestSharedFieldIDs(t *testing.T) {
	h, _ := static.HPACK(28)
	q, _ := static.QPACK(4)
	if h.Name != "content-length" || q.Name != "content-length" || h.ID != q.ID || h.ID != static.ContentLength {
		t.Errorf("HPACK 28 = %+v, QPACK 4 = %+v; want content-length with one ID", h, q)
	}
	for _, c := range []struct {
		id     static.FieldID
		name   string
		hi, qi int
	}{
		{static.Authority, ":authority", 1, 0},
		{static.Path, ":path", 4, 1},
		{static.Status, ":status", 8, 24},
		{static.ContentLength, "content-length", 28, 4},
		{static.AccessControlAllowOrigin, "access-control-allow-origin", 20, 35},
		{static.WWWAuthenticate, "www-authenticate", 61, -1},
		{static.XFrameOptions, "x-frame-options", -1, 97},
		{static.None, "", -1, -1},
	} {
		if c.id.Name() != c.name || c.id.HPACKIndex() != c.hi || c.id.QPACKIndex() != c.qi {
			t.Errorf("%v: %q %d %d, want %q %d %d", c.id, c.id.Name(), c.id.HPACKIndex(), c.id.QPACKIndex(), c.name, c.hi, c.qi)
		}
	}
}

func TestStringAndOutOfRange(t *testing.T) {
	for _, c := range []struct {
		id   static.FieldID
		want string
	}{
		{static.None, "None"},
		{static.Authority, "Authority"},
		{static.ContentLength, "ContentLength"},
		{static.ETag, "ETag"},
		{static.XXSSProtection, "XXSSProtection"},
		{static.MaxFieldID + 1, fmt.Sprintf("FieldID(%d)", int(static.MaxFieldID)+1)},
		{255, "FieldID(255)"},
	} {
		if got := fmt.Sprint(c.id); got != c.want {
			t.Errorf("fmt.Sprint(FieldID(%d)) = %q, want %q", c.id, got, c.want)
		}
	}
	for id := int(static.MaxFieldID) + 1; id < 256; id++ {
		f := static.FieldID(id)
		if f.Name() != "" || f.HPACKIndex() != -1 || f.QPACKIndex() != -1 || f.IsPseudo() {
			t.Errorf("FieldID(%d): %q %d %d %v", id, f.Name(), f.HPACKIndex(), f.QPACKIndex(), f.IsPseudo())
		}
	}
	for _, i := range []uint64{0, static.HPACKLen + 1, 1 << 63, ^uint64(0)} {
		if e, ok := static.HPACK(i); ok || e != (static.Entry{}) {
			t.Errorf("HPACK(%d) = %+v, %v", i, e, ok)
		}
	}
	for _, i := range []uint64{static.QPACKLen, 1 << 63, ^uint64(0)} {
		if e, ok := static.QPACK(i); ok || e != (static.Entry{}) {
			t.Errorf("QPACK(%d) = %+v, %v", i, e, ok)
		}
	}
}

// TestNearMisses changes every name and value one byte at a time (every
// byte value at every position), cuts it short, makes it longer and
// uppercases it; each lookup must agree with the reference.
func TestNearMisses(t *testing.T) {
	r := newRef(t)
	var pairs [][2]string
	for p := range r.hpackExact {
		pairs = append(pairs, p)
	}
	for p := range r.qpackExact {
		pairs = append(pairs, p)
	}
	for _, p := range pairs {
		name, val := p[0], p[1]
		for _, n := range variants(name) {
			if err := r.check(n, val); err != nil {
				t.Fatal(err)
			}
		}
		for _, v := range variants(val) {
			if err := r.check(name, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, n := range []string{"", ":", "-", "Content-Length", "CONTENT-LENGTH", ":Path", "content-length ", " content-length", "content-length\x00"} {
		if id := static.Lookup(n); id != static.None {
			t.Errorf("Lookup(%q) = %v, want None", n, id)
		}
	}
}

// variants returns s with each byte replaced by each other byte value,
// every proper prefix, s with a byte added at each end, and uppercase s.
func variants(s string) []string {
	var out []string
	b := []byte(s)
	for i := range b {
		orig := b[i]
		for c := 0; c < 256; c++ {
			if byte(c) != orig {
				b[i] = byte(c)
				out = append(out, string(b))
			}
		}
		b[i] = orig
	}
	for i := 0; i < len(s); i++ {
		out = append(out, s[:i])
	}
	out = append(out, s+"a", s+"-", "a"+s, ":"+s, strings.ToUpper(s), strings.ToUpper(s[:min(1, len(s))])+s[min(1, len(s)):])
	return out
}

// Results go to these so the calls measured below have an effect.
var (
	idSink    static.FieldID
	intSink   int
	entrySink static.Entry
)

func TestLookupsDoNotAllocate(t *testing.T) {
	name := []byte("content-length")
	for _, c := range []struct {
		what string
		f    func()
	}{
		{"Lookup", func() { idSink = static.Lookup("x-forwarded-for") }},
		{"LookupBytes", func() { idSink = static.LookupBytes(name) }},
		{"LookupHPACK", func() { intSink, _ = static.LookupHPACK(":status", "404") }},
		{"LookupQPACK", func() { intSink, _ = static.LookupQPACK("content-type", "text/plain;charset=utf-8") }},
		{"HPACK", func() { entrySink, _ = static.HPACK(28) }},
		{"QPACK", func() { entrySink, _ = static.QPACK(98) }},
		{"FieldID methods", func() {
			id := static.ContentLength
			_, _, _, _ = id.Name(), id.HPACKIndex(), id.QPACKIndex(), id.String()
		}},
	} {
		if n := testing.AllocsPerRun(100, c.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", c.what, n)
		}
	}
}

// TestHPACKStrings: HPACKStrings answers as HPACK does, in range and out.
func TestHPACKStrings(t *testing.T) {
	for i := uint64(0); i <= static.HPACKLen+2; i++ {
		e, _ := static.HPACK(i)
		if n, v := static.HPACKStrings(i); n != e.Name || v != e.Value {
			t.Errorf("HPACKStrings(%d) = %q, %q; HPACK gives %q, %q", i, n, v, e.Name, e.Value)
		}
	}
	if n, v := static.HPACKStrings(1 << 63); n != "" || v != "" {
		t.Errorf("HPACKStrings(1<<63) = %q, %q", n, v)
	}
}

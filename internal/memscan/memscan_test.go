package memscan

import "testing"

type inner struct {
	arr  [8]byte
	tail []byte
}

type outer struct {
	name  string
	in    *inner
	list  []inner
	any   any
	m     map[string][]byte
	cycle *outer
}

func TestFind(t *testing.T) {
	secret := []byte("s3cret")
	spare := make([]byte, 2, 16)
	copy(spare[8:16], secret) // past the length: held all the same
	for _, c := range []struct {
		name string
		v    *outer
		want string
	}{
		{"nothing", &outer{name: "x", in: &inner{}}, ""},
		{"string", &outer{name: "a s3cret"}, "root.name"},
		{"array", &outer{in: &inner{arr: [8]byte{'s', '3', 'c', 'r', 'e', 't'}}}, "root.in.arr"},
		{"spare capacity", &outer{in: &inner{tail: spare}}, "root.in.tail"},
		{"element past the length", &outer{list: append(make([]inner, 0, 4), inner{}, inner{}, inner{tail: secret})[:1]}, "root.list[2].tail"},
		{"interface", &outer{any: &inner{tail: secret}}, "root.any.tail"},
		{"map", &outer{m: map[string][]byte{"k": secret}}, "root.m{value}"},
	} {
		c.v.cycle = c.v
		if got := Find(c.v, secret); got != c.want {
			t.Errorf("%s: Find = %q, want %q", c.name, got, c.want)
		}
	}
}

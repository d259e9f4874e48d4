package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/policy"
)

// nameClasses maps a QPACK static index to the default policy's class of
// its name (internal/policy's one table, keyed by static.FieldID).
var nameClasses = policy.ByQPACKIndex()

// policyFlags are the flags that decide reads.
const policyFlags = fastpath.NeverIndex | fastpath.NoIndex | fastpath.Index

// decide returns policy x for one field (not content-length): exactly
// one of NeverIndex (a never-indexed literal), NoIndex (not inserted),
// Index (inserted if it fits), or 0 (inserted when the encoder judges it
// pays and it is at most 3/4 of the table). sn is the lowest static index
// of the name, or -1.
func decide(x fastpath.Indexing, f fastpath.Flags, sn int, vlen int) fastpath.Flags {
	c := policy.Plain
	if sn >= 0 {
		c = nameClasses[sn]
	}
	return policy.Decide(x, f, c, vlen)
}

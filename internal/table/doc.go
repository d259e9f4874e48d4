// Package table is the dynamic table that the HPACK and QPACK encoders and
// decoders share (RFC 7541 §2.3.2 and §4, RFC 9204 §3.2).
//
// A Table is a ring of entry records over one byte arena: inserting and
// evicting are O(1), nothing is allocated per entry once the arena has
// grown to twice the capacity, and entries are read as byte slices that
// alias the arena. Encoders enable a hashed index (Init with indexed true)
// for Lookup by name and by name and value; decoders leave it off and pay
// nothing for it. An entry may carry a one-byte tag (AddTagged, GetTagged):
// the decoders keep the name's static.FieldID there, found once per insert
// rather than once per reference.
package table

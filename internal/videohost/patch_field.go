package videohost

import "encoding/json"

var _ json.Marshaler = Field[string]{}

// Field is one member of a write's body that may be left out: absent (the zero Field, which
// a PATCH reads as "leave it as it is"), null (Null, which clears it) or a value (Value).
// Bodies tag such members `json:",omitzero"`, so that an absent Field is not sent at all.
type Field[T any] struct {
	v       T
	present bool
	null    bool
}

// Value is a Field that sends v.
func Value[T any](v T) Field[T] { return Field[T]{v: v, present: true} }

// Null is a Field that sends null.
func Null[T any]() Field[T] { return Field[T]{present: true, null: true} }

// IsZero reports whether the field is absent; encoding/json leaves it out under omitzero.
func (f Field[T]) IsZero() bool { return !f.present }

// IsNull reports whether the field sends null.
func (f Field[T]) IsNull() bool { return f.present && f.null }

// Get returns the value and whether the field sends one.
func (f Field[T]) Get() (T, bool) { return f.v, f.present && !f.null }

// MarshalJSON writes null or the value. An absent Field left in a body without omitzero is
// written as null too, since no other JSON form says "nothing".
func (f Field[T]) MarshalJSON() ([]byte, error) {
	if !f.present || f.null {
		return []byte("null"), nil
	}
	// Written as the rest of the body is (encodeBody): an enclosing encoder keeps a
	// Marshaler's escapes, so json.Marshal here would send a title's < as six bytes.
	return encodeBody(f.v)
}

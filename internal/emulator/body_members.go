package emulator

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// isNull reports whether a body member is JSON null.
func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// decodeMember decodes one member of a live stream or player theme body into T. It answers the
// detail of the member's problem, or "": null is refused (the endpoints that accept null look
// for it first) and so is a value of another JSON type than typeName.
func decodeMember[T any](raw json.RawMessage, typeName string) (T, string) {
	var v T
	if isNull(raw) {
		return v, detailNotNull
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, "This value should be of type " + typeName + "."
	}
	return v, ""
}

// unknownMembers lists, in name order, a problem for every member of body that known does not
// hold; prefix is put before each name (restreams[0] for the members of a restream).
func (e *Emulator) unknownMembers(body map[string]json.RawMessage, known []string, prefix string) []problem {
	var probs []problem
	for _, k := range slices.Sorted(maps.Keys(body)) {
		if !slices.Contains(known, k) {
			name := k
			if prefix != "" {
				name = prefix + "[" + k + "]"
			}
			probs = append(probs, e.fieldUnknown(name))
		}
	}
	return probs
}

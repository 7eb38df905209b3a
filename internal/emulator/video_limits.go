package emulator

import (
	"fmt"
	"unicode/utf8"
)

// The bounds of a video's title, tags and metadata. The service's published interface gives
// none, and its only bound was the body's size, answered "The payload is invalid." with no
// word of which member or limit. The emulator keeps these (the provider checks the same ones
// when a plan is made) and names the member and the bound in the error.
const (
	maxVideoTitle         = 1000
	maxVideoTags          = 200
	maxVideoTag           = 255
	maxVideoMetadata      = 100
	maxVideoMetadataKey   = 255
	maxVideoMetadataValue = 1000
)

// titleLengthDetail is the problem of a title beyond its bound, or "".
func titleLengthDetail(title string) string {
	if n := utf8.RuneCountInString(title); n > maxVideoTitle {
		return fmt.Sprintf("This value is too long (%d characters). It should have %d characters or less.", n, maxVideoTitle)
	}
	return ""
}

// tagsDetail is the problem of tags beyond their bounds, or "".
func tagsDetail(tags []string) string {
	if len(tags) > maxVideoTags {
		return fmt.Sprintf("This collection has %d elements. It should contain %d elements or less.", len(tags), maxVideoTags)
	}
	for i, t := range tags {
		if n := utf8.RuneCountInString(t); n == 0 || n > maxVideoTag {
			return fmt.Sprintf("Tag %d is %d characters long. Each tag should have 1 to %d characters.", i, n, maxVideoTag)
		}
	}
	return ""
}

// metadataDetail is the problem of metadata beyond their bounds, or "".
func metadataDetail(md []Metadatum) string {
	if len(md) > maxVideoMetadata {
		return fmt.Sprintf("This collection has %d elements. It should contain %d elements or less.", len(md), maxVideoMetadata)
	}
	for i, m := range md {
		if n := utf8.RuneCountInString(m.Key); n > maxVideoMetadataKey {
			return fmt.Sprintf("The key of item %d is %d characters long. It should have %d characters or less.", i, n, maxVideoMetadataKey)
		}
		if n := utf8.RuneCountInString(m.Value); n > maxVideoMetadataValue {
			return fmt.Sprintf("The value of item %d is %d characters long. It should have %d characters or less.", i, n, maxVideoMetadataValue)
		}
	}
	return ""
}

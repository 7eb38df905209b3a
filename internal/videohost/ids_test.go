package videohost

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckID(t *testing.T) {
	for _, id := range []string{"wh-1", "vi4k0jvEUuaTdRAEjQ4Jfrgz", "wébhook ü", "..a", "a.b", "%2e%2e", "wh?x=1#top"} {
		if err := CheckID(id); err != nil {
			t.Errorf("CheckID(%q) = %v, want nil", id, err)
		}
	}
	for id, says := range map[string]string{
		"":                     "the id is empty",
		".":                    `holds the path step "."`,
		"..":                   `holds the path step ".."`,
		"../videos":            `holds the path step ".."`,
		"a/b":                  "holds a slash or a backslash",
		`a\b`:                  "holds a slash or a backslash",
		"wh-\xff":              "not valid UTF-8",
		"wh-1\n":               "control character",
		" wh-1":                "white space",
		"wh-1\u00a0":           "white space",
		"wh-1\u200b\u0000tail": "control character",
	} {
		err := CheckID(id)
		var ie *IDError
		if !errors.Is(err, ErrInvalidID) || !errors.As(err, &ie) || !strings.Contains(ie.Reason, says) {
			t.Errorf("CheckID(%q) = %v, want an *IDError saying %q", id, err, says)
		}
	}
}

// TestCheckIDIsStricterThanTheRequestPath pins the two tiers: every id CheckID accepts, the
// request path sends; an id with a slash but no dot step is refused by CheckID, yet escaped into
// one segment and sent by a call (see TestPathTraversalIsRefused).
func TestCheckIDIsStricterThanTheRequestPath(t *testing.T) {
	for _, id := range []string{"wh-1", "..a", "wébhook ü", "a/b", "x/./y"} {
		pathErr := checkPathSegments(webhookCollection.item(id))
		if CheckID(id) == nil && pathErr != nil {
			t.Errorf("CheckID accepts %q, but the request path refuses it: %v", id, pathErr)
		}
	}
	if CheckID("a/b") == nil || checkPathSegments(webhookCollection.item("a/b")) != nil {
		t.Error(`want "a/b" refused by CheckID and sent by the request path`)
	}
}

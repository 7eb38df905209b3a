package emulator

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// maxRestreams is the most restream destinations a live stream may have.
const maxRestreams = 5

// liveStreamChange is a decoded body of POST or PATCH /live-streams: a nil field was absent and
// leaves the live stream as it is.
type liveStreamChange struct {
	name   *string
	public *bool
	// playerID, when not nil, is the player theme to attach (a null is refused).
	playerID *string
	// restreams, when not nil, replaces the whole list (an empty list removes every restream).
	restreams *[]Restream
}

// liveStreamMembers are the members that a live stream body may hold.
var liveStreamMembers = []string{"name", "public", "playerId", "restreams"}

// restreamMembers are the members of one restream, in the order they are checked.
var restreamMembers = []string{"name", "serverUrl", "streamKey"}

// decodeLiveStreamBody checks the body of a create (POST) or an update (PATCH) and lists every
// problem, in the order name, public, playerId, restreams (each in turn), then the members the
// live stream does not have. Whether playerId names a player theme is checked later, under the
// store's lock.
func (e *Emulator) decodeLiveStreamBody(body map[string]json.RawMessage, create bool) (liveStreamChange, []problem) {
	var c liveStreamChange
	var probs []problem
	if raw, ok := body["name"]; ok {
		name, detail := decodeMember[string](raw, "string")
		if detail == "" && strings.TrimSpace(name) == "" {
			detail = detailNotBlank
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("name", detail))
		} else {
			c.name = &name
		}
	} else if create {
		probs = append(probs, problem{Type: e.docLink(slugAttributeRequired), Title: titleRequired, Name: "name", Detail: detailNameRequired})
	}
	if raw, ok := body["public"]; ok {
		public, detail := decodeMember[bool](raw, "bool")
		if detail != "" {
			probs = append(probs, e.fieldInvalid("public", detail))
		} else {
			c.public = &public
		}
	}
	if raw, ok := body["playerId"]; ok {
		// The published document gives a live stream's playerId as a string, never null (unlike
		// a video's): there is no documented way to detach a live stream's player theme, so a
		// null is refused like any other member's.
		id, detail := decodeMember[string](raw, "string")
		if detail != "" {
			probs = append(probs, e.fieldInvalid("playerId", detail))
		}
		c.playerID = &id
	}
	if raw, ok := body["restreams"]; ok {
		list, restreamProbs := e.decodeRestreams(raw)
		probs = append(probs, restreamProbs...)
		if len(restreamProbs) == 0 {
			c.restreams = &list
		}
	}
	probs = append(probs, e.unknownMembers(body, liveStreamMembers, "")...)
	return c, probs
}

// decodeRestreams checks a restreams member: an array of at most five objects, each with a
// name, a serverUrl of the form rtmp(s)://host/app and a streamKey, none blank or null.
func (e *Emulator) decodeRestreams(raw json.RawMessage) ([]Restream, []problem) {
	items, detail := decodeMember[[]json.RawMessage](raw, "array")
	if detail != "" {
		return nil, []problem{e.fieldInvalid("restreams", detail)}
	}
	if len(items) > maxRestreams {
		return nil, []problem{e.fieldInvalid("restreams", detailTooManyRestreams)}
	}
	list := make([]Restream, 0, len(items))
	var probs []problem
	for i, item := range items {
		at := "restreams[" + strconv.Itoa(i) + "]"
		members, detail := decodeMember[map[string]json.RawMessage](item, "object")
		if detail != "" {
			probs = append(probs, e.fieldInvalid(at, detail))
			continue
		}
		var values [3]string
		for j, m := range restreamMembers {
			raw, present := members[m]
			detail := detailNotNull // A member left out is null to the service.
			if present {
				values[j], detail = decodeMember[string](raw, "string")
			}
			if detail == "" {
				detail = restreamValueProblem(m, values[j])
			}
			if detail != "" {
				probs = append(probs, e.fieldInvalid(at+"["+m+"]", detail))
			}
		}
		probs = append(probs, e.unknownMembers(members, restreamMembers, at)...)
		list = append(list, Restream{Name: values[0], ServerURL: values[1], StreamKey: values[2]})
	}
	return list, probs
}

// restreamValueProblem is the detail of what is wrong with a restream's member, or "".
func restreamValueProblem(member, v string) string {
	if strings.TrimSpace(v) == "" {
		return detailNotBlank
	}
	if member == "serverUrl" {
		return rtmpURLProblem(v)
	}
	return ""
}

// rtmpURLProblem is the detail of what is wrong with a restream's server URL, or "": it must be
// rtmp:// or rtmps://, name a host, and have an app name as the first part of its path.
func rtmpURLProblem(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "rtmp" && u.Scheme != "rtmps") || u.Hostname() == "" {
		return detailRTMPFormat
	}
	app, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if app == "" {
		return detailMissingApp
	}
	return ""
}

// apply makes the change to l; the caller has checked that playerId names a player theme.
func (c liveStreamChange) apply(l *liveStream) {
	if c.name != nil {
		l.Name = *c.name
	}
	if c.public != nil {
		l.Public = *c.public
	}
	if c.playerID != nil {
		l.PlayerID = *c.playerID
	}
	if c.restreams != nil {
		l.Restreams = slices.Clone(*c.restreams)
	}
}

package emulator

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Members of a video's create and update bodies; source, clip and watermark exist only at
// creation.
var (
	videoUpdateMembers = []string{"title", "description", "public", "panoramic", "mp4Support", "playerId", "tags", "metadata",
		"language", "transcript", "transcriptSummary", "transcriptSummaryAttributes"}
	videoCreateMembers = slices.Concat(videoUpdateMembers, []string{"source", "clip", "watermark"})
	watermarkMembers   = []string{"id", "top", "left", "bottom", "right", "width", "height", "opacity"}
)

// timecodeRe is HH:MM:SS with optional milliseconds, the form of thumbnails and clips.
var timecodeRe = regexp.MustCompile(`^\d{2}:[0-5]\d:[0-5]\d(\.\d{1,3})?$`)

// Details of the video body's problems.
const (
	detailTitleRequired = "A video needs a title."
	detailTimecode      = "This value should be a timecode HH:MM:SS, optionally with milliseconds (HH:MM:SS.mmm)."
	detailSourceURL     = "This value should be an http(s) URL of a video, or the id of a video of this workspace to copy."
	detailMetadataKey   = "Every metadata item needs a key."
)

// videoBody is a decoded create or update body: what it changes is made to the record by
// applyVideoBody; what needs the store (the player theme, the source to copy) is kept here for
// the caller to check under the lock.
type videoBody struct {
	setPlayer bool
	playerID  string
	source    string
	summary   bool // transcriptSummary was sent true
}

// applyVideoBody makes the change that body asks for to v and lists every problem, members in
// the order of the contract, then those a video does not have (create tells which apply).
func (e *Emulator) applyVideoBody(v *video, body map[string]json.RawMessage, create bool) (videoBody, []problem) {
	var b videoBody
	var probs []problem
	add := func(name, detail string) { probs = append(probs, e.fieldInvalid(name, detail)) }
	if raw, ok := body["title"]; ok {
		title, detail := decodeMember[string](raw, "string")
		if detail == "" && strings.TrimSpace(title) == "" {
			detail = detailNotBlank
		}
		if detail == "" {
			detail = titleLengthDetail(title)
		}
		if detail != "" {
			add("title", detail)
		}
		v.Title = title
	} else if create {
		probs = append(probs, problem{Type: e.docLink(slugAttributeRequired), Title: titleRequired, Name: "title", Detail: detailTitleRequired})
	}
	if raw, ok := body["description"]; ok {
		d, detail := decodeMember[string](raw, "string")
		if detail != "" && isNull(raw) {
			d, detail = "", ""
		}
		if detail != "" {
			add("description", detail)
		}
		v.Description = d
	}
	for _, f := range []struct {
		name  string
		field *bool
	}{{"public", &v.Public}, {"panoramic", &v.Panoramic}, {"mp4Support", &v.MP4Support}, {"transcript", &v.Transcript}, {"transcriptSummary", &v.TranscriptSummary}} {
		if raw, ok := body[f.name]; ok {
			val, detail := decodeMember[bool](raw, "bool")
			if detail != "" {
				add(f.name, detail)
			}
			*f.field = val
			if f.name == "transcriptSummary" {
				b.summary = val
			}
		}
	}
	if raw, ok := body["playerId"]; ok {
		b.setPlayer = true
		if !isNull(raw) {
			id, detail := decodeMember[string](raw, "string")
			if detail != "" {
				add("playerId", detail)
			}
			b.playerID = id
		}
	}
	probs = append(probs, e.applyVideoLists(v, body)...)
	probs = append(probs, e.applySummaryAttributes(v, body)...)
	if raw, ok := body["language"]; ok {
		v.Language, v.LanguageOrigin = "", ""
		if !isNull(raw) {
			lang, detail := decodeMember[string](raw, "string")
			if detail == "" {
				detail = videoLanguageProblem(lang)
			}
			if detail != "" {
				add("language", detail)
			}
			v.Language, v.LanguageOrigin = lang, languageFromAPI
		}
	}
	if create {
		probs = append(probs, e.applyCreateOnly(v, &b, body)...)
	}
	known := videoUpdateMembers
	if create {
		known = videoCreateMembers
	}
	return b, append(probs, e.unknownMembers(body, known, "")...)
}

// applySummaryAttributes keeps the parts of a summary that the body asks for
// (transcriptSummaryAttributes: abstract, takeaways), for the summary that transcriptSummary
// makes then or later; none kept is a full summary.
func (e *Emulator) applySummaryAttributes(v *video, body map[string]json.RawMessage) []problem {
	raw, ok := body["transcriptSummaryAttributes"]
	if !ok {
		return nil
	}
	attrs, detail := decodeMember[[]string](raw, "array of strings")
	if detail == "" && slices.ContainsFunc(attrs, func(a string) bool { return a != "abstract" && a != "takeaways" }) {
		detail = "Each value should be abstract or takeaways."
	}
	if detail != "" {
		return []problem{e.fieldInvalid("transcriptSummaryAttributes", detail)}
	}
	v.SummaryAttributes = attrs
	return nil
}

// applyVideoLists replaces the tags and the metadata when the body sends them: each is sent
// whole.
func (e *Emulator) applyVideoLists(v *video, body map[string]json.RawMessage) []problem {
	var probs []problem
	if raw, ok := body["tags"]; ok {
		tags, detail := decodeMember[[]string](raw, "array of strings")
		if detail == "" {
			detail = tagsDetail(tags)
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("tags", detail))
		}
		v.Tags = tags
	}
	if raw, ok := body["metadata"]; ok {
		md, detail := decodeMember[[]Metadatum](raw, "array of {key, value}")
		if detail == "" && slices.ContainsFunc(md, func(m Metadatum) bool { return m.Key == "" }) {
			detail = detailMetadataKey
		}
		if detail == "" {
			detail = metadataDetail(md)
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("metadata", detail))
		}
		v.Metadata = md
	}
	return probs
}

// applyCreateOnly reads source, clip and watermark, which only a create may send.
func (e *Emulator) applyCreateOnly(v *video, b *videoBody, body map[string]json.RawMessage) []problem {
	var probs []problem
	add := func(name, detail string) { probs = append(probs, e.fieldInvalid(name, detail)) }
	if raw, ok := body["source"]; ok && !isNull(raw) {
		src, detail := decodeMember[string](raw, "string")
		if detail == "" && !isVideoID(src) {
			if u, err := url.Parse(src); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				detail = detailSourceURL
			}
		}
		if detail != "" {
			add("source", detail)
		}
		b.source = src
	}
	if raw, ok := body["clip"]; ok && !isNull(raw) {
		c, detail := decodeMember[clipRange](raw, "object")
		for _, tc := range []string{c.StartTimecode, c.EndTimecode} {
			if detail == "" && tc != "" && !timecodeRe.MatchString(tc) {
				detail = detailTimecode
			}
		}
		if detail != "" {
			add("clip", detail)
		}
		v.Clip = &c
	}
	if raw, ok := body["watermark"]; ok && !isNull(raw) {
		wm, detail := decodeMember[map[string]json.RawMessage](raw, "object")
		if detail != "" {
			add("watermark", detail)
		}
		probs = append(probs, e.unknownMembers(wm, watermarkMembers, "watermark")...)
		id, idDetail := "", detailNotBlank
		if rawID, ok := wm["id"]; ok {
			id, idDetail = decodeMember[string](rawID, "string")
		}
		if detail == "" && (idDetail != "" || id == "") {
			probs = append(probs, problem{Type: e.docLink(slugAttributeRequired), Title: titleRequired, Name: "watermark[id]", Detail: cmpDetail(idDetail)})
		}
		for _, k := range watermarkMembers[1:] {
			if rv, ok := wm[k]; ok {
				if _, d := decodeMember[string](rv, "string"); d != "" {
					add("watermark["+k+"]", d)
				}
			}
		}
		v.WatermarkID = id
	}
	return probs
}

// cmpDetail is detail, or detailNotBlank when it is empty.
func cmpDetail(detail string) string {
	if detail == "" {
		return detailNotBlank
	}
	return detail
}

// videoIDRe is the shape of a video id: vi and base62 characters (the seed's are digits).
var videoIDRe = regexp.MustCompile(`^vi[0-9A-Za-z]{10,}$`)

// isVideoID reports whether a create's source names a video to copy rather than a URL.
func isVideoID(s string) bool { return videoIDRe.MatchString(s) }

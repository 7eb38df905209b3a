package acctest

// Tests of the data source shells: bad ids and filters refused with a diagnostic on the
// attribute.

import "fmt"

func DataWith(kind, body string) string {
	return fmt.Sprintf("data %q \"test\" {\n%s\n}\n", kind, body)
}

// DataSourceIDBadInput are the ids of data sources that could name another endpoint: they are
// refused at validation.
func DataSourceIDBadInput() []BadInputRow {
	return []BadInputRow{
		{Name: "data webhook/empty id", Config: DataWith("videohost_webhook", `id = ""`),
			Want: `(?s)id.*string length must be at least 1`, ConfigOnly: true, NoRequest: true},
		{Name: "data webhook/id ../videos", Config: DataWith("videohost_webhook", `id = "../videos"`),
			Want: `(?s)Invalid ID.*Set id to the id of a webhook \(its webhookId\) as the videohost_webhooks data source lists it.*"\.\./videos" holds the path step "\.\."`, ConfigOnly: true, NoRequest: true},
		{Name: "data webhook/id ..", Config: DataWith("videohost_webhook", `id = ".."`),
			Want: `(?s)Invalid ID.*the id "\.\." holds the path step "\.\."`, ConfigOnly: true, NoRequest: true},
		{Name: "data video/empty id", Config: DataWith("videohost_video", `id = ""`),
			Want: `(?s)id.*string length must be at least 1`, ConfigOnly: true, NoRequest: true},
		{Name: "data video/id with dot steps", Config: DataWith("videohost_video", `id = "vi1/../../webhooks"`),
			Want: `(?s)Invalid ID.*a video \(its videoId\).*videohost_videos.*holds the path step "\.\."`, ConfigOnly: true, NoRequest: true},
		{Name: "data video/unicode id with a slash", Config: DataWith("videohost_video", `id = "vidéo-ü/"`),
			Want: `(?s)Invalid ID.*holds a slash`, ConfigOnly: true, NoRequest: true},
		// Unicode alone is escaped into the path and answered by the service.
		{Name: "data video/unicode id is escaped", Config: DataWith("videohost_video", `id = "vidéo-ü"`),
			Want: `(?s)Unable to Read Video.*no such object in this workspace.*Check the id.*GET\s+/videos/vid%C3%A9o-%C3%BC`, ConfigOnly: true},
		{Name: "data live_stream/id with a backslash", Config: DataWith("videohost_live_stream", `id = "..\\videos"`),
			Want: `(?s)Invalid ID.*a live stream \(its liveStreamId\).*holds the path step "\.\."`, ConfigOnly: true, NoRequest: true},
		{Name: "data live_stream/id with a trailing space", Config: DataWith("videohost_live_stream", `id = "li_1 "`),
			Want: `(?s)Invalid ID.*starts or ends with white space; remove it`, ConfigOnly: true, NoRequest: true},
		{Name: "data live_stream/id with a line break", Config: DataWith("videohost_live_stream", `id = "li_1\nli_2"`),
			Want: `(?s)Invalid ID.*holds a control character`, ConfigOnly: true, NoRequest: true},
	}
}

// DataSourceFilterBadInput are the filters of data sources out of range.
func DataSourceFilterBadInput() []BadInputRow {
	return []BadInputRow{
		{Name: "data webhooks/unknown event", Config: DataWith("videohost_webhooks", `event = "video.uploaded"`),
			Want: `(?s)event.*` + OneOfEvents, ConfigOnly: true, NoRequest: true},
		{Name: "data webhooks/empty event", Config: DataWith("videohost_webhooks", `event = ""`),
			Want: `(?s)event.*value must be one of`, ConfigOnly: true, NoRequest: true},
		{Name: "data videos/unknown sort_by", Config: DataWith("videohost_videos", `sort_by = "duration"`),
			Want: `(?s)sort_by.*value must be one of.*"title".*"createdAt".*"publishedAt".*"updatedAt"`, ConfigOnly: true, NoRequest: true},
		{Name: "data videos/unknown sort_order", Config: DataWith("videohost_videos", `sort_order = "newest"`),
			Want: `(?s)sort_order.*value must be one of.*"asc".*"desc"`, ConfigOnly: true, NoRequest: true},
		{Name: "data videos/empty title", Config: DataWith("videohost_videos", `title = ""`),
			Want: `(?s)title.*string length must be at least 1`, ConfigOnly: true, NoRequest: true},
		{Name: "data live_streams/empty name", Config: DataWith("videohost_live_streams", `name = ""`),
			Want: `(?s)name.*string length must be at least 1`, ConfigOnly: true, NoRequest: true},
		{Name: "data live_streams/unknown sort_by", Config: DataWith("videohost_live_streams", `sort_by = "title"`),
			Want: `(?s)sort_by.*value must be one of.*"name".*"createdAt".*"updatedAt"`, ConfigOnly: true, NoRequest: true},
	}
}

package provider

// Tests of the data source shells: bad ids and filters refused with a diagnostic on the
// attribute.

import "fmt"

func dataWith(kind, body string) string {
	return fmt.Sprintf("data %q \"test\" {\n%s\n}\n", kind, body)
}

// dataSourceIDBadInput are the ids of data sources that could name another endpoint: they are
// refused at validation.
func dataSourceIDBadInput() []badInputRow {
	return []badInputRow{
		{name: "data webhook/empty id", config: dataWith("videohost_webhook", `id = ""`),
			want: `(?s)id.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data webhook/id ../videos", config: dataWith("videohost_webhook", `id = "../videos"`),
			want: `(?s)Invalid ID.*Set id to the id of a webhook \(its webhookId\) as the videohost_webhooks data source lists it.*"\.\./videos" holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data webhook/id ..", config: dataWith("videohost_webhook", `id = ".."`),
			want: `(?s)Invalid ID.*the id "\.\." holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data video/empty id", config: dataWith("videohost_video", `id = ""`),
			want: `(?s)id.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data video/id with dot steps", config: dataWith("videohost_video", `id = "vi1/../../webhooks"`),
			want: `(?s)Invalid ID.*a video \(its videoId\).*videohost_videos.*holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data video/unicode id with a slash", config: dataWith("videohost_video", `id = "vidéo-ü/"`),
			want: `(?s)Invalid ID.*holds a slash`, configOnly: true, noRequest: true},
		// Unicode alone is escaped into the path and answered by the service.
		{name: "data video/unicode id is escaped", config: dataWith("videohost_video", `id = "vidéo-ü"`),
			want: `(?s)Unable to Read Video.*no such object in this workspace.*Check the id.*GET\s+/videos/vid%C3%A9o-%C3%BC`, configOnly: true},
		{name: "data live_stream/id with a backslash", config: dataWith("videohost_live_stream", `id = "..\\videos"`),
			want: `(?s)Invalid ID.*a live stream \(its liveStreamId\).*holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data live_stream/id with a trailing space", config: dataWith("videohost_live_stream", `id = "li_1 "`),
			want: `(?s)Invalid ID.*starts or ends with white space; remove it`, configOnly: true, noRequest: true},
		{name: "data live_stream/id with a line break", config: dataWith("videohost_live_stream", `id = "li_1\nli_2"`),
			want: `(?s)Invalid ID.*holds a control character`, configOnly: true, noRequest: true},
	}
}

// dataSourceFilterBadInput are the filters of data sources out of range.
func dataSourceFilterBadInput() []badInputRow {
	return []badInputRow{
		{name: "data webhooks/unknown event", config: dataWith("videohost_webhooks", `event = "video.uploaded"`),
			want: `(?s)event.*` + oneOfEvents, configOnly: true, noRequest: true},
		{name: "data webhooks/empty event", config: dataWith("videohost_webhooks", `event = ""`),
			want: `(?s)event.*value must be one of`, configOnly: true, noRequest: true},
		{name: "data videos/unknown sort_by", config: dataWith("videohost_videos", `sort_by = "duration"`),
			want: `(?s)sort_by.*value must be one of.*"title".*"createdAt".*"publishedAt".*"updatedAt"`, configOnly: true, noRequest: true},
		{name: "data videos/unknown sort_order", config: dataWith("videohost_videos", `sort_order = "newest"`),
			want: `(?s)sort_order.*value must be one of.*"asc".*"desc"`, configOnly: true, noRequest: true},
		{name: "data videos/empty title", config: dataWith("videohost_videos", `title = ""`),
			want: `(?s)title.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data live_streams/empty name", config: dataWith("videohost_live_streams", `name = ""`),
			want: `(?s)name.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data live_streams/unknown sort_by", config: dataWith("videohost_live_streams", `sort_by = "title"`),
			want: `(?s)sort_by.*value must be one of.*"name".*"createdAt".*"updatedAt"`, configOnly: true, noRequest: true},
	}
}

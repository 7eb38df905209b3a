package provider

// What the chapter resource sends: its upload, read and delete (trackOps, sent through
// track_writes.go).

import "github.com/videohost/terraform-provider-videohost/internal/videohost"

// chapterOps are the requests of a chapter file.
var chapterOps = trackOps[videohost.Chapter]{
	get:    (*videohost.Client).GetChapter,
	lookup: (*videohost.Client).LookupChapter,
	upload: (*videohost.Client).UploadChapter,
	del:    (*videohost.Client).DeleteChapter,
}

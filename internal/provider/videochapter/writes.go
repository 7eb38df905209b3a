package videochapter

// What the chapter resource sends: its upload, read and delete (trackOps, sent through
// track_writes.go).

import (
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// chapterOps are the requests of a chapter file.
var chapterOps = track.TrackOps[videohost.Chapter]{
	Get:    (*videohost.Client).GetChapter,
	Lookup: (*videohost.Client).LookupChapter,
	Upload: (*videohost.Client).UploadChapter,
	Del:    (*videohost.Client).DeleteChapter,
}

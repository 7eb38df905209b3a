package provider

// What the caption resource sends: its upload, read and delete (trackOps, sent through
// track_writes.go), and the change of the video's default caption.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// captionOps are the requests of a caption.
var captionOps = trackOps[videohost.Caption]{
	get:    (*videohost.Client).GetCaption,
	lookup: (*videohost.Client).LookupCaption,
	upload: (*videohost.Client).UploadCaption,
	del:    (*videohost.Client).DeleteCaption,
}

// setCaptionDefault makes the caption of language the video's default (or not); false, with an
// error on default titled summary, when it failed.
func setCaptionDefault(ctx context.Context, pd *providerData, videoID, language string, isDefault bool, summary string,
	diags *diag.Diagnostics,
) (videohost.Caption, bool) {
	c, err := pd.client.SetCaptionDefault(ctx, videoID, language, isDefault)
	if err != nil {
		addAPIErrorDiagnostics(diags, summary, err, pd, map[string]path.Path{"default": path.Root("default")})
		return c, false
	}
	return c, true
}

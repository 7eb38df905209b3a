package framework

// What the thumbnails of videos and live streams share: an image file uploaded as the
// thumbnail (thumbnail_file), its SHA-256 taken at plan time (thumbnail_sha256), and the
// address the upload got, kept in the private state. The service gives every uploaded
// thumbnail an address of its own and keeps nothing that tells whether it is the file's, so a
// thumbnail whose address is no longer the recorded one was set outside Terraform (another
// image, a picked frame, or a delete): its hash is made null and the next apply uploads the
// file again, as for a player theme's logo.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// thumbnailImage bounds a thumbnail as the service does: a JPEG or PNG of at most 8 MiB.
var thumbnailImage = localfile.ImageLimits{MaxBytes: 8 << 20}

// thumbnailAddressKey keys the address of the thumbnail Terraform uploaded in the private state.
const thumbnailAddressKey = "thumbnail_address"

// ThumbnailAttributes are thumbnail_file and thumbnail_sha256 of the resource of kind
// ("video"); removal says what removing the file does.
func ThumbnailAttributes(kind, removal string) (schema.StringAttribute, schema.StringAttribute) {
	file := schema.StringAttribute{
		MarkdownDescription: "Path of an image uploaded as the " + kind + "'s thumbnail: a JPEG or PNG (recognised by its " +
			"content) of at most 8 MiB that is whole (checked without decoding its pixels) when the plan is made. A change of its content " +
			"(`thumbnail_sha256`) uploads it again in place; " + removal + " No default: the service's own thumbnail.",
		Optional: true,
	}
	sum := schema.StringAttribute{
		MarkdownDescription: "SHA-256 of `thumbnail_file`'s content (lowercase hex), taken when the plan is made; null " +
			"without a thumbnail file, or when the " + kind + " shows another thumbnail than the one Terraform uploaded " +
			"(set outside Terraform): the next apply uploads the file again, in place.",
		Computed: true,
	}
	return file, sum
}

// PlanThumbnail plans thumbnail_sha256 from file and reports whether the apply uploads it: a
// new file, another content, or a thumbnail the service no longer shows (a null state hash).
func PlanThumbnail(ctx context.Context, file types.String, sum *types.String, stateSum *types.String,
	req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
) bool {
	*sum = PlanFileSHA256(ctx, file, thumbnailImage, "thumbnail_file", req, resp)
	return ThumbnailUploads(file, *sum, stateSum)
}

// ThumbnailUploads reports whether the apply uploads file, of hash sum, over the state's hash
// (nil on a create).
func ThumbnailUploads(file, sum types.String, stateSum *types.String) bool {
	return !file.IsNull() && (stateSum == nil || stateSum.IsNull() || !sum.Equal(*stateSum))
}

// UploadThumbnail checks that the file still has the planned hash and uploads it with send; it
// records the address the service gave it. An error is added on thumbnail_file; false then.
func UploadThumbnail[T any](ctx context.Context, pd *ProviderData, file, sum types.String, private PrivateWriter,
	send func(context.Context, videohost.UploadSource) (T, error), address func(T) string, diags *diag.Diagnostics,
) (T, bool) {
	var zero T
	at := path.Root("thumbnail_file")
	if _, err := CheckPlannedImage(ctx, file.ValueString(), sum.ValueString(), thumbnailImage); err != nil {
		AddImageFileError(diags, at, "Unable to Upload Thumbnail", err)
		return zero, false
	}
	got, err := UploadImage(ctx, file.ValueString(), sum.ValueString(), thumbnailImage, send)
	if err != nil {
		AddAPIErrorDiagnostics(diags, "Unable to Upload Thumbnail", err, pd, map[string]path.Path{"file": at})
		return zero, false
	}
	RecordThumbnailAddress(ctx, private, address(got), diags)
	return got, true
}

// RecordThumbnailAddress keeps address (without the token of a private video, which changes at
// every read) as the thumbnail's that Terraform uploaded; "" forgets it.
func RecordThumbnailAddress(ctx context.Context, private PrivateWriter, address string, diags *diag.Diagnostics) {
	var raw []byte
	if address != "" {
		raw, _ = json.Marshal(withoutToken(address)) // A string always marshals.
	}
	diags.Append(private.SetKey(ctx, thumbnailAddressKey, raw)...)
}

// ThumbnailReplacedOutside compares the thumbnail address the service shows with the one
// recorded at the upload: a warning, and true, when they differ.
func ThumbnailReplacedOutside(ctx context.Context, private PrivateReader, kind, id, current string, diags *diag.Diagnostics) bool {
	raw, d := private.GetKey(ctx, thumbnailAddressKey)
	diags.Append(d...)
	var recorded string
	if len(raw) == 0 || json.Unmarshal(raw, &recorded) != nil || recorded == "" || recorded == withoutToken(current) {
		return false
	}
	diags.AddWarning(titleCase(kind)+" Thumbnail Replaced Outside Terraform", fmt.Sprintf(
		"The thumbnail of %s %s is no longer the image Terraform uploaded: its address changed from %s to %s. "+
			"The next apply uploads thumbnail_file again, in place.", kind, id, recorded, withoutToken(current)))
	return true
}

// withoutToken is address without its token parameter, which a private video's addresses
// carry anew at every read.
func withoutToken(address string) string {
	u, err := url.Parse(address)
	if err != nil || u.RawQuery == "" {
		return address
	}
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	return u.String()
}

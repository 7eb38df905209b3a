package uploadtoken

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ framework.ManagedResource = (*uploadTokenResource)(nil)

// uploadTokenResource is videohost_upload_token: a delegated upload token. Nothing of a token
// can be changed, so ttl forces a replacement. Its id is the token's fingerprint, not the token
// (upload_token_model.go says why), so the reads and the delete, which need the token, take it
// from the state rather than from the id.
//
// Only ttl is configurable, and a change of it replaces the token: an update has nothing to
// send, and keeps the state as planned (withPlannedUpdate).
type uploadTokenResource struct {
	framework.ManagedBase
	framework.WithPlannedUpdate
}

// NewUploadTokenResource returns the videohost_upload_token resource.
func NewUploadTokenResource() resource.Resource {
	return &uploadTokenResource{ManagedBase: framework.NewManagedBase(uploadTokenWrites)}
}

// maxUploadTokenTTL is the longest lifetime the service gives a token, in seconds.
const maxUploadTokenTTL = 2147483647

// UploadTokenFingerprintPattern is a fingerprint as uploadTokenFingerprint makes it.
var UploadTokenFingerprintPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

// UploadTokenPattern is the shape of a token itself (`to` and 22 base62 characters).
var UploadTokenPattern = regexp.MustCompile(`^to[0-9A-Za-z]{22}$`)

func (r *uploadTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A delegated upload token: whoever holds `token` can upload videos into the workspace " +
			"(`POST /upload?token=`) without the API key, until it expires or is deleted. Nothing of a token can be " +
			"changed: a change of `ttl` replaces it. The resource's `id` is the token's fingerprint, not the " +
			"token, so that Terraform's progress lines never print the secret. A token that expired or was " +
			"deleted outside Terraform is removed from the state with a warning that says which (judged by the " +
			"service's clock when it answered, not this machine's), and the next apply creates a new one. To hand a token to a tool without keeping it in the state, use the " +
			"`videohost_upload_token` ephemeral resource. Import by the fingerprint (see the import section).",
		Attributes: map[string]schema.Attribute{
			"id": framework.KeptString("The token's fingerprint: the first 16 hexadecimal digits of the SHA-256 of the token " +
				"(`substr(sha256(token), 0, 16)` in the Terraform language). It identifies the token in Terraform's " +
				"output, the identity and an import without revealing it."),
			"ttl": schema.Int64Attribute{
				CustomType: framework.WholeNumberType{Unit: "seconds"},
				MarkdownDescription: fmt.Sprintf("Lifetime of the token in seconds, counted from its creation; `0` "+
					"never expires. At most %d. Default `0`. A change replaces the token.", maxUploadTokenTTL),
				Optional:      true,
				Computed:      true,
				Default:       int64default.StaticInt64(0),
				Validators:    []validator.Int64{int64validator.Between(0, maxUploadTokenTTL)},
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"token": framework.KeptSecret("The upload token, to give to whoever uploads (`POST /upload?token=`). Sensitive: " +
				"it appears in no plan and no log, only in the state."),
			"created_at": framework.KeptString("When the token was created, RFC 3339 (UTC)."),
			"expires_at": framework.KeptString("When the token expires, RFC 3339 (UTC); null when `ttl` is `0`."),
		},
	}
}

func (r *uploadTokenResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       "Fingerprint of the upload token: the first 16 hexadecimal digits of its SHA-256 (not the token).",
				RequiredForImport: true,
			},
		},
	}
}

// ImportState imports by the token's fingerprint, from terraform import, an import block's id
// or its identity. The token itself is refused: Terraform prints the import id.
func (r *uploadTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, ok := framework.ImportedID(ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	switch {
	case UploadTokenPattern.MatchString(id):
		resp.Diagnostics.AddError("Invalid Import ID",
			"This import id looks like an upload token itself, which Terraform would print in its output. Import "+
				"an upload token by its fingerprint instead: substr(sha256(token), 0, 16) in the Terraform language "+
				"(with the token in a sensitive variable set from the environment, TF_VAR_...), or the id that the "+
				"videohost_upload_tokens data source and terraform query (list \"videohost_upload_token\") show.")
		return
	case !UploadTokenFingerprintPattern.MatchString(id):
		resp.Diagnostics.AddError("Invalid Import ID",
			"Import an upload token by its fingerprint: 16 lowercase hexadecimal digits, substr(sha256(token), 0, 16) "+
				"in the Terraform language, or the id that the videohost_upload_tokens data source and terraform "+
				"query (list \"videohost_upload_token\") show.")
		return
	}
	framework.SetImportedID(ctx, resp, id)
}

func (r *uploadTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := framework.ConfiguredModel[uploadTokenModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	ttl := int(plan.TTL.ValueInt64())
	tok, ok := framework.CreateObject(ctx, r.Pd, uploadTokenWrites, &resp.Diagnostics, framework.AdoptionCreateOps(r.Pd, UploadTokenAdoptable(r.Pd, ttl)))
	if !ok {
		return
	}
	state := UploadTokenModelFrom(tok)
	tflog.Debug(ctx, "created upload token", map[string]any{"fingerprint": state.ID.ValueString(), "ttl": ttl})
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &state, state.ID)...)
}

func (r *uploadTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[uploadTokenModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(framework.SetIDIdentity(ctx, resp.Identity, state.ID)...)
	if r.Pd == nil {
		// The provider's configuration depends on values not known yet; the state stays.
		return
	}
	tok, err := readUploadToken(ctx, r.Pd.Client, state)
	switch {
	case errors.Is(err, videohost.ErrNotFound):
		if state.Token.IsNull() {
			// An import of a fingerprint that no token has: Terraform says that the object
			// to import does not exist.
			resp.State.RemoveResource(ctx)
			return
		}
		warnUploadTokenGone(&resp.Diagnostics, state, err)
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Upload Token", err, r.Pd, uploadTokenWrites.Attrs)
		return
	}
	m := UploadTokenModelFrom(tok)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// warnUploadTokenGone says why the token of state is gone from the service (err, its 404): it
// expired, or it was deleted outside Terraform. Expiry is the service's to decide, so it is
// judged by the service's clock when it answered the 404, never by this machine's, which may
// be minutes or hours away from it; an answer without the service's time says both are possible.
func warnUploadTokenGone(diags *diag.Diagnostics, state uploadTokenModel, err error) {
	id, next := state.ID.ValueString(), "Terraform removed it from the state and, where it is still configured, "+
		"planned to create a new token."
	var api *videohost.Error
	switch {
	case state.ExpiresAt.IsNull():
		diags.AddWarning("Upload Token Deleted Outside Terraform", fmt.Sprintf("The upload token %s no longer exists "+
			"on the service and never expires (ttl 0): it was deleted outside Terraform. %s", id, next))
	case !errors.As(err, &api) || api.ServiceTime.IsZero():
		diags.AddWarning("Upload Token Gone", fmt.Sprintf("The upload token %s no longer exists on the service: it "+
			"expired (at %s) or was deleted outside Terraform; the service's answer did not say its time, so which "+
			"one is not known. %s", id, state.ExpiresAt.ValueString(), next))
	case state.expired(api.ServiceTime):
		diags.AddWarning("Upload Token Expired", fmt.Sprintf("The upload token %s expired at %s (its ttl was %d "+
			"seconds; the service's clock read %s), so the service no longer has it. %s", id,
			state.ExpiresAt.ValueString(), state.TTL.ValueInt64(), api.ServiceTime.UTC().Format(time.RFC3339), next))
	default:
		diags.AddWarning("Upload Token Deleted Outside Terraform", fmt.Sprintf("The upload token %s no longer exists "+
			"on the service and had not expired (it expires at %s; the service's clock read %s): it was deleted "+
			"outside Terraform. %s", id, state.ExpiresAt.ValueString(), api.ServiceTime.UTC().Format(time.RFC3339), next))
	}
}

// readUploadToken reads the token of state: by the token it holds, or, after an import (which
// gives only the fingerprint), by finding the token with that fingerprint in the list.
// ErrNotFound when the service has no such token.
func readUploadToken(ctx context.Context, c *videohost.Client, state uploadTokenModel) (videohost.UploadToken, error) {
	if token := state.Token.ValueString(); token != "" {
		return c.LookupUploadToken(ctx, token)
	}
	want := state.ID.ValueString()
	for t, err := range c.WalkUploadTokens(ctx, videohost.UploadTokenFilter{}) {
		if err != nil {
			return videohost.UploadToken{}, err
		}
		if UploadTokenFingerprint(t.Token) == want {
			return t, nil
		}
	}
	return videohost.UploadToken{}, videohost.ErrNotFound
}

// Delete deletes the token that the state holds; one already gone (expired, or deleted
// outside Terraform) counts as deleted.
func (r *uploadTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := framework.ConfiguredModel[uploadTokenModel](ctx, r.Pd, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	token := state.Token.ValueString()
	if token == "" {
		return // nothing was ever recorded to delete
	}
	deleteUploadToken(ctx, r.Pd, state.ID.ValueString(), token, &resp.Diagnostics)
}

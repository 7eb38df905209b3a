package uploadtoken

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ ephemeral.EphemeralResourceWithConfigure = (*uploadTokenEphemeralResource)(nil)
	_ ephemeral.EphemeralResourceWithClose     = (*uploadTokenEphemeralResource)(nil)
)

// NewUploadTokenEphemeralResource returns the videohost_upload_token ephemeral resource.
func NewUploadTokenEphemeralResource() ephemeral.EphemeralResource {
	return &uploadTokenEphemeralResource{}
}

// uploadTokenEphemeralResource makes an upload token when Terraform opens it and deletes it
// when Terraform closes it, so that a token handed to a tool during one run is in no state or
// plan and does not outlive the run. Terraform opens an ephemeral resource in the plan and again
// in the apply: each opening makes its own token, which its closing deletes. The ttl bounds a
// token whose closing never comes (a killed Terraform).
type uploadTokenEphemeralResource struct {
	pd *framework.ProviderData
}

// defaultEphemeralUploadTokenTTL is the lifetime of an ephemeral token whose ttl is not set.
const defaultEphemeralUploadTokenTTL = 3600

// uploadTokenPrivateKey names the token in the private data that Terraform hands from Open to
// Close; Terraform keeps it in memory only.
const uploadTokenPrivateKey = "upload_token"

func (r *uploadTokenEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_upload_token"
}

func (r *uploadTokenEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A delegated upload token that lives for one Terraform run: it is made when Terraform opens " +
			"the ephemeral resource and deleted when Terraform closes it, and is never written to the plan or the " +
			"state (Terraform 1.10 or later, OpenTofu 1.11 or later). Terraform opens it once in the plan and once " +
			"in the apply, each time with a new token. Use it in provider blocks, ephemeral variables, write-only " +
			"arguments or provisioners that upload during the run. When one opening of a run fails, Terraform closes " +
			"none of the run's ephemeral resources: the provider then deletes the tokens it opened when Terraform " +
			"stops it at the end of the run, or when Terraform dies without stopping it (kill -9); SIGTERM ends the run as Ctrl-C does. " +
			"A delete that cannot go out, or is not answered, before Terraform ends the provider (the writes budget of " +
			"the rate window is spent, a slow service) is left to a process the provider starts for it, which deletes the tokens within 2 minutes and " +
			"exits. A token outlives its run, until its `ttl` ends, only when the provider itself is killed before " +
			"it deletes the token, when the service does not answer the delete in that time, or when an opening's create fails with an unknown " +
			"outcome while another client (another run on the same API key) creates a token with the same `ttl`: the " +
			"provider cannot tell which is its own, fails the opening and deletes neither. For a token that " +
			"outlives the run, use the `videohost_upload_token` resource.",
		Attributes: map[string]schema.Attribute{
			"ttl": schema.Int64Attribute{
				CustomType: framework.WholeNumberType{Unit: "seconds"},
				MarkdownDescription: fmt.Sprintf("Lifetime of the token in seconds, from 1 to %d; it bounds a token "+
					"that is never deleted because Terraform was killed. Default `%d`.", maxUploadTokenTTL, defaultEphemeralUploadTokenTTL),
				// Computed as well: the opening sets the default, and Terraform (unlike OpenTofu) refuses
				// a result that sets an attribute the configuration left null unless it is computed.
				Optional:   true,
				Computed:   true,
				Validators: []validator.Int64{int64validator.Between(1, maxUploadTokenTTL)},
			},
			"id":         schema.StringAttribute{Computed: true, MarkdownDescription: uploadTokenIDDescription},
			"token":      schema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: uploadTokenTokenDescription},
			"created_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When the token was created, RFC 3339 (UTC)."},
			"expires_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When the token expires, RFC 3339 (UTC)."},
		},
	}
}

func (r *uploadTokenEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	r.pd = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// uploadTokenPrivate is what Close needs of the token that Open made.
type uploadTokenPrivate struct {
	Token string `json:"token"`
}

func (r *uploadTokenEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	cfg, ok := framework.ConfiguredModel[uploadTokenModel](ctx, r.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	ttl := int64(defaultEphemeralUploadTokenTTL)
	if !cfg.TTL.IsNull() && !cfg.TTL.IsUnknown() {
		ttl = cfg.TTL.ValueInt64()
	}
	tok, ok := OpenUploadToken(ctx, r.pd, int(ttl), &resp.Diagnostics)
	if !ok {
		return
	}
	m := UploadTokenModelFrom(tok)
	tflog.Debug(ctx, "opened ephemeral upload token", map[string]any{"fingerprint": m.ID.ValueString(), "ttl": ttl})
	private, err := json.Marshal(uploadTokenPrivate{Token: tok.Token})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Keep Upload Token", "Encoding the token for its deletion failed: "+err.Error())
	}
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, uploadTokenPrivateKey, private)...)
		resp.Diagnostics.Append(resp.Result.Set(ctx, m)...)
	}
	if resp.Diagnostics.HasError() {
		// A failed open leaves nothing: Terraform closes no ephemeral resource whose open failed.
		// A delete that fails leaves the token among the unclosed ones, deleted when Terraform
		// stops the provider.
		_ = deleteOpenedToken(ctx, r.pd, tok.Token)
	}
}

// OpenUploadToken makes the token of an opening, adopting what an attempt of unknown outcome
// stored (adoption.go), and records it among the unclosed tokens of this process. When the
// opening was interrupted after a create was sent, the token that create stored is looked for
// and deleted: the run it was for is over. False, with an error diagnostic, when there is no
// token.
func OpenUploadToken(ctx context.Context, pd *framework.ProviderData, ttl int, diags *diag.Diagnostics) (videohost.UploadToken, bool) {
	a := UploadTokenAdoptable(pd, ttl)
	a.TooManyAdvice = ephemeralTokenAdvice
	d := &framework.Adoption[videohost.UploadToken]{Pd: pd, A: a}
	tok, err := d.Send(ctx)
	if err == nil {
		UnclosedUploadTokens.Keep(pd.Client, tok.Token)
		return tok, true
	}
	if framework.Interrupted(ctx) && errors.Is(err, videohost.ErrAmbiguous) {
		sctx, cancel := framework.SettleContext(ctx, pd)
		defer cancel()
		if found, ok, ferr := d.Find(sctx); ferr == nil && ok {
			UnclosedUploadTokens.Keep(pd.Client, found.Token)
			_ = deleteOpenedToken(ctx, pd, found.Token) // kept among the unclosed ones until deleted
		}
	}
	var refused *framework.AdoptionError
	if errors.As(err, &refused) {
		diags.AddError(refused.Summary, refused.Detail)
	} else {
		framework.AddAPIErrorDiagnostics(diags, "Unable to Create Upload Token", err, pd, uploadTokenWrites.Attrs)
	}
	return videohost.UploadToken{}, false
}

// ephemeralTokenAdvice is what an opening that cannot tell its token among candidates tells
// the user: the token it may have made stays usable until its ttl ends, since deleting one that
// is not provably its own could revoke another run's credential.
func ephemeralTokenAdvice(candidates []videohost.UploadToken) string {
	var last *time.Time
	for _, c := range candidates {
		if c.ExpiresAt != nil && (last == nil || c.ExpiresAt.After(*last)) {
			last = c.ExpiresAt
		}
	}
	until := "until its ttl ends"
	if last != nil {
		until = "until its ttl ends, " + last.UTC().Format(time.RFC3339) + " at the latest"
	}
	return "Another run on the same API key opened a token at the same moment, with the same ttl. The token this " +
		"opening may have made stays usable " + until + ". Run terraform again; to end it sooner, delete the tokens " +
		"that no run uses (the videohost_upload_tokens data source lists them). Giving each concurrent run its own " +
		"ttl, or its own API key, lets the provider tell its tokens apart."
}

// deleteOpenedToken deletes a token that an opening made, on a context of its own (the token
// was made for this run only, whether or not the run was interrupted), and forgets it.
func deleteOpenedToken(ctx context.Context, pd *framework.ProviderData, token string) error {
	sctx, cancel := framework.SettleContext(ctx, pd)
	defer cancel()
	err := pd.Client.DeleteUploadToken(sctx, token)
	if err == nil || errors.Is(err, videohost.ErrNotFound) {
		UnclosedUploadTokens.forget(token)
		return nil
	}
	tflog.Warn(ctx, "could not delete an ephemeral upload token", map[string]any{
		"fingerprint": UploadTokenFingerprint(token), "error": err.Error(),
	})
	return err
}

// Close deletes the token that Open made; one already gone (expired, or deleted by someone
// else) counts as deleted.
func (r *uploadTokenEphemeralResource) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	if !framework.RequireConfigured(r.pd, &resp.Diagnostics) {
		return
	}
	raw, diags := req.Private.GetKey(ctx, uploadTokenPrivateKey)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || raw == nil {
		return
	}
	var p uploadTokenPrivate
	if err := json.Unmarshal(raw, &p); err != nil || p.Token == "" {
		resp.Diagnostics.AddError("Unable to Delete Upload Token",
			"The token that this ephemeral resource made could not be recovered to delete it; it expires at the end "+
				"of its ttl. This is a bug in the provider; please report it.")
		return
	}
	fingerprint := UploadTokenFingerprint(p.Token)
	if err := deleteOpenedToken(ctx, r.pd, p.Token); err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Delete Upload Token "+fingerprint, err, r.pd, nil)
		return
	}
	tflog.Debug(ctx, "closed ephemeral upload token", map[string]any{"fingerprint": fingerprint})
}

package webhook

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ framework.ManagedResource = (*webhookResource)(nil)

// webhookResource is videohost_webhook. The service has no update endpoint, so every
// attribute set by the user forces replacement.
type webhookResource struct {
	framework.DeletedByID
	framework.WithIDImport
}

// WebhookAttributePaths maps the parameter names of the webhook endpoints, as a 400's problems
// name them, to the attributes of the webhook resource.
var WebhookAttributePaths = map[string]path.Path{
	"url":    path.Root("url"),
	"events": path.Root("events"),
}

// NewWebhookResource returns the videohost_webhook resource.
func NewWebhookResource() resource.Resource {
	return &webhookResource{
		DeletedByID:  framework.NewDeletedByID(WebhookWrites),
		WithIDImport: framework.NewIDImport(WebhookWrites, "webhookId"),
	}
}

func (r *webhookResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A webhook: the service sends an HTTP notification, signed with `signature_secret`, " +
			"to `url` when one of `events` occurs. The service cannot change a webhook, so changing `url` or " +
			"`events` replaces it (a new id and a new secret). Import with the webhook's id, or with its identity " +
			"(`identity = { id = ... }`, Terraform 1.12 and later); `terraform query` finds webhooks to import " +
			"(list resource `videohost_webhook`, Terraform 1.14 and later).",
		Attributes: map[string]schema.Attribute{
			"id": framework.KeptString("Identifier of the webhook (the service's `webhookId`)."),
			"url": schema.StringAttribute{
				MarkdownDescription: "Absolute http or https address that receives the notifications, without user " +
					"name or password (the receiver authenticates deliveries by their signature). Changing it " +
					"replaces the webhook. No default.",
				Required:      true,
				Validators:    []validator.String{framework.HttpURLValidator(), framework.WebhookURLValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"events": schema.SetAttribute{
				MarkdownDescription: "Event names the webhook subscribes to, at least one of: " + eventNamesMarkdown() +
					". Changing them replaces the webhook. No default.",
				Required:      true,
				ElementType:   types.StringType,
				Validators:    framework.EventSetValidators(),
				PlanModifiers: []planmodifier.Set{setplanmodifier.RequiresReplace()},
			},
			"created_at": framework.KeptString("Creation time of the webhook, RFC 3339."),
			"signature_secret": framework.KeptSecret("Secret that signs the notifications (HMAC-SHA256 of the body, lowercase hex, " +
				"in the `X-Service-Signature` header); receivers verify it with `provider::videohost::verify_webhook_signature` " +
				"or their own code. Sensitive: it is stored in the state, which must be protected."),
		},
	}
}

func (r *webhookResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := framework.ConfiguredModel[WebhookModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var in videohost.CreateWebhookInput
	in.URL = plan.URL.ValueString()
	resp.Diagnostics.Append(plan.Events.ElementsAs(ctx, &in.Events, false)...)
	if resp.Diagnostics.HasError() {
		return
	}

	w, ok := framework.CreateObject(ctx, r.Pd, WebhookWrites, &resp.Diagnostics, WebhookCreateOps(r.Pd, in))
	if !ok {
		return
	}
	tflog.Debug(ctx, "created webhook", map[string]any{"webhook_id": w.ID})

	state, diags := WebhookModelFrom(ctx, w, types.StringNull())
	resp.Diagnostics.Append(diags...)
	if state.SignatureSecret.IsNull() {
		resp.Diagnostics.AddWarning("Signature Secret Not Available",
			"The service did not return the signature secret of webhook "+w.ID+", neither when creating it nor "+
				"in its list. signature_secret stays empty until a later refresh finds it (terraform apply -refresh-only).")
	}
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &state, state.ID)...)
}

func (r *webhookResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[WebhookModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	w, ok := framework.ReadRemote(ctx, &r.ManagedBase, resp, state.ID, "", (*videohost.Client).LookupWebhook)
	if !ok {
		return
	}
	newState, diags := WebhookModelFrom(ctx, w, state.SignatureSecret)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
}

// Update cannot be reached: every attribute the user sets forces replacement, and the service
// has no endpoint that changes a webhook.
func (r *webhookResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Webhooks Cannot Be Updated",
		"The service has no way to change a webhook, and every attribute of videohost_webhook forces its "+
			"replacement, so Terraform should never ask for an update. This is a bug in the provider; please report it.")
}

// eventFilterDescription describes the event filter of the webhooks data source and of the
// webhook list resource.
var eventFilterDescription = "Only the webhooks subscribed to this event, one of: " + eventNamesMarkdown() +
	". Unset lists every webhook."

// eventNamesMarkdown lists the event names for schema descriptions.
func eventNamesMarkdown() string {
	return "`" + strings.Join(events.Names(), "`, `") + "`"
}

package webhook

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ action.ActionWithConfigure = (*webhookCheckAction)(nil)

// webhookCheckAction is videohost_webhook_check: it proves that a webhook's receiver takes the
// service's deliveries and refuses forged ones, before a real event depends on it. It sends the
// receiver a sample event signed as the service signs deliveries, then the same event with a
// wrong signature, from where Terraform runs.
type webhookCheckAction struct {
	pd *framework.ProviderData
}

// NewWebhookCheckAction returns the videohost_webhook_check action.
func NewWebhookCheckAction() action.Action { return &webhookCheckAction{} }

type webhookCheckModel struct {
	WebhookID types.String `tfsdk:"webhook_id"`
	Event     types.String `tfsdk:"event"`
}

func (a *webhookCheckAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook_check"
}

func (a *webhookCheckAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Checks a webhook's receiver (an action: Terraform 1.14 and later; OpenTofu and older " +
			"Terraform do not run actions). It sends the receiver one sample event of a type the webhook subscribes to, " +
			"signed exactly as the service signs its deliveries (a `POST` of a JSON body with `type`, `emittedAt` and " +
			"the event's fields; headers `X-Service-WebhookID` and `X-Service-Signature`, the lowercase hex " +
			"HMAC-SHA256 of the body keyed with the webhook's signature secret), and fails unless the receiver answers " +
			fmt.Sprintf("2xx within %d seconds. Then it sends the same event with a wrong signature, and fails if the receiver ", int(videohost.DefaultDeliveryTimeout.Seconds())) +
			"accepts it (answers 2xx): a receiver that does not verify signatures takes deliveries from anyone. " +
			"The deliveries come from where Terraform runs, not from the service: a receiver that only admits the " +
			"service's addresses refuses them. Run it after the webhook is created with an `action_trigger` in " +
			"the webhook's `lifecycle`, or alone with `terraform apply -invoke=action.videohost_webhook_check.<name>`.",
		Attributes: map[string]schema.Attribute{
			"webhook_id": schema.StringAttribute{
				MarkdownDescription: "Id of the webhook whose receiver is checked (`videohost_webhook.<name>.id`). Required.",
				Required:            true,
				Validators:          framework.ServiceIDValidators("a webhook (its webhookId)", "videohost_webhooks"),
			},
			"event": schema.StringAttribute{
				MarkdownDescription: "Type of the sample event, one of the events the webhook subscribes to. Defaults to " +
					"the first of them in alphabetical order.",
				Optional:   true,
				Validators: []validator.String{framework.EventNameValidator()},
			},
		},
	}
}

func (a *webhookCheckAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.pd = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (a *webhookCheckAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	cfg, ok := framework.ConfiguredModel[webhookCheckModel](ctx, a.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	progress := func(format string, args ...any) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}
	id := cfg.WebhookID.ValueString()
	w, err := a.pd.Client.LookupWebhook(ctx, id)
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read the Webhook to Check", err, a.pd,
			map[string]path.Path{"webhookId": path.Root("webhook_id")})
		return
	}
	if w.SignatureSecret == "" {
		resp.Diagnostics.AddAttributeError(path.Root("webhook_id"), "Signature Secret Not Available",
			"The service did not give the signature secret of webhook "+id+", so no delivery can be signed as the "+
				"service signs it. Try again later.")
		return
	}
	event, ok := sampleEventOf(id, w.Events, cfg.Event.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	body, err := videohost.SampleEvent(event, time.Now())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("event"), "No Sample of This Event", err.Error())
		return
	}

	progress("Sending a sample %s event (%d bytes), signed with the webhook's secret, to %s", event, len(body), w.URL)
	answer, err := a.pd.Client.SendDelivery(ctx, w.URL, id, videohost.Sign(w.SignatureSecret, body), body, videohost.DefaultDeliveryTimeout)
	if err != nil {
		progress("%s did not answer the signed delivery: %v", w.URL, err)
		resp.Diagnostics.AddError("Webhook Receiver Did Not Answer",
			fmt.Sprintf("The receiver of webhook %s at %s did not answer a signed sample delivery (%s): %v. The service "+
				"counts such a delivery as failed and tries it again up to 3 times, 3 seconds apart. Check that the "+
				"receiver runs and can be reached from here.", id, w.URL, event, err))
		return
	}
	progress("%s answered the signed delivery with %d in %s", w.URL, answer.Status, answer.Elapsed.Round(time.Millisecond))
	if !answer.Accepted {
		resp.Diagnostics.AddError("Webhook Receiver Refused a Signed Delivery",
			fmt.Sprintf("The receiver of webhook %s at %s answered %d to a sample %s delivery signed with the webhook's "+
				"secret. The service counts an answer above 299 as a failed delivery. Check that the receiver verifies "+
				"the X-Service-Signature header against this webhook's signature_secret (the lowercase hex HMAC-SHA256 "+
				"of the raw body) and answers 2xx.", id, w.URL, answer.Status, event))
		return
	}

	progress("Sending the same event with a wrong signature to %s", w.URL)
	forged, err := a.pd.Client.SendDelivery(ctx, w.URL, id, videohost.ForgedSignature(body), body, videohost.DefaultDeliveryTimeout)
	switch {
	case errors.Is(err, videohost.ErrNoAnswer):
		progress("%s did not answer the forged delivery in time: not accepted", w.URL)
	case err != nil:
		progress("%s did not take the forged delivery: %v", w.URL, err)
	case forged.Accepted:
		progress("%s accepted the forged delivery with %d", w.URL, forged.Status)
		resp.Diagnostics.AddError("Webhook Receiver Accepted a Forged Delivery",
			fmt.Sprintf("The receiver of webhook %s at %s answered %d to a sample %s delivery whose X-Service-Signature "+
				"is not the signature of its body: it does not verify signatures, so anyone who knows its address can "+
				"send it events. Make it compute the HMAC-SHA256 of the raw body keyed with the webhook's "+
				"signature_secret, compare it with the header, and answer 401 when they differ.", id, w.URL, forged.Status, event))
	default:
		progress("%s refused the forged delivery with %d: signatures are verified", w.URL, forged.Status)
	}
}

// sampleEventOf is the event whose sample the check sends to webhook id, which subscribes to
// events: the configured event, which must be one of them, or else the first of them by name.
// False, with an error, when there is none to send.
func sampleEventOf(id string, events []string, event string, diags *diag.Diagnostics) (string, bool) {
	subscribed := slices.Sorted(slices.Values(events))
	switch {
	case event == "" && len(subscribed) == 0:
		diags.AddAttributeError(path.Root("webhook_id"), "Webhook Subscribes to No Event",
			"Webhook "+id+" subscribes to no event, so there is no sample to send.")
		return "", false
	case event == "":
		event = subscribed[0]
	case !slices.Contains(subscribed, event):
		diags.AddAttributeError(path.Root("event"), "Event Not Subscribed",
			fmt.Sprintf("Webhook %s does not subscribe to %q, so the service would never send it one: set event to one "+
				"of %q, or leave it out.", id, event, subscribed))
		return "", false
	}
	return event, true
}

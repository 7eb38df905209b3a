package framework

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// minTimeout is the shortest time a timeouts block may give an operation. The block's own
// validator accepts any duration, "0s", "-5s" and "1ns" included, with which every apply
// fails "interrupted before anything was sent"; nothing the provider does (one request, let
// alone an upload) ends in less than a second.
const minTimeout = time.Second

// TimeoutsBlock is the timeouts block of opts (terraform-plugin-framework-timeouts) whose
// every duration must be at least minTimeout, checked when the configuration is validated.
// Every resource with a timeouts block uses it.
func TimeoutsBlock(ctx context.Context, opts timeouts.Opts) schema.Block {
	b := timeouts.Block(ctx, opts)
	nested, ok := b.(schema.SingleNestedBlock)
	if !ok {
		return b
	}
	nested.Attributes = maps.Clone(nested.Attributes)
	for name, a := range nested.Attributes {
		if s, ok := a.(schema.StringAttribute); ok {
			s.Validators = append(slices.Clone(s.Validators), timeoutValidator{})
			nested.Attributes[name] = s
		}
	}
	return nested
}

// timeoutValidator refuses a duration below minTimeout; one that does not parse is left to the
// block's own validator.
type timeoutValidator struct{}

var _ validator.String = timeoutValidator{}

func (timeoutValidator) Description(context.Context) string {
	return fmt.Sprintf("value must be a duration of at least %s", minTimeout)
}

func (v timeoutValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeoutValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d >= minTimeout {
		return
	}
	why := "is zero"
	switch {
	case d < 0:
		why = "is negative"
	case d > 0:
		why = "is shorter than a second"
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Timeout Too Short", fmt.Sprintf(
		"%s = %q %s: the operation could not send a single request within it, and every apply would fail. Set a "+
			"duration of at least %s, such as \"30m\", or remove it for the default.",
		attrInWords(req.Path), req.ConfigValue.ValueString(), why, minTimeout))
}

package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = colourValidator{}

// colourAlpha is the alpha of a colour: 0 or 1, or a decimal with a point, with or without the
// leading 0 (".95" and "0.95" are both what the service takes).
var colourAlpha = regexp.MustCompile(`^(?:[01]|[01]?\.[0-9]+)$`)

// colourValidator accepts a colour as the service's player themes take it:
// rgba(R, G, B, A) with R, G and B integers from 0 to 255 and A a decimal from 0 to 1.
// Checking at plan time turns a 400 at apply into a message on the attribute before any
// request.
type colourValidator struct{}

func (colourValidator) Description(context.Context) string {
	return "value must be a colour rgba(R, G, B, A): R, G and B integers from 0 to 255, A a decimal from 0 to 1"
}

func (v colourValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (colourValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if why := checkColour(req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Colour",
			fmt.Sprintf("Set %s to a colour of the form rgba(R, G, B, A), such as \"rgba(88, 131, 255, .95)\": R, G "+
				"and B are integers from 0 to 255 and A is a decimal from 0 to 1. %s.", req.Path, why))
	}
}

// checkColour returns why s is not a colour of the service, or "" when it is one.
func checkColour(s string) string {
	inner, ok := strings.CutPrefix(s, "rgba(")
	if ok {
		inner, ok = strings.CutSuffix(inner, ")")
	}
	if !ok {
		return fmt.Sprintf("%q does not have the form rgba(...)", s)
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 4 {
		return fmt.Sprintf("%q has %d components, not 4 (red, green, blue, alpha)", s, len(parts))
	}
	for i, name := range []string{"red", "green", "blue"} {
		p := strings.TrimSpace(parts[i])
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || strings.HasPrefix(p, "+") {
			return fmt.Sprintf("the %s of %q is %q, not an integer from 0 to 255", name, s, p)
		}
	}
	a := strings.TrimSpace(parts[3])
	f, err := strconv.ParseFloat(a, 64)
	if !colourAlpha.MatchString(a) || err != nil || f > 1 {
		return fmt.Sprintf("the alpha of %q is %q, not a decimal from 0 to 1", s, a)
	}
	return ""
}

package provider

import (
	"context"
	"fmt"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// stateCheckFunc is a state check written as a function of the whole state, for assertions that
// relate the state to the service (the emulator's records) rather than to fixed values.
type stateCheckFunc func(*tfjson.State) error

func (f stateCheckFunc) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f(req.State)
}

// planCheckFunc is a plan check written as a function.
type planCheckFunc func(*tfjson.Plan) error

func (f planCheckFunc) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(req.Plan)
}

// stateWebhooks returns the videohost_webhook resources in the root module of the state.
func stateWebhooks(s *tfjson.State) []*tfjson.StateResource {
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return nil
	}
	var out []*tfjson.StateResource
	for _, r := range s.Values.RootModule.Resources {
		if r.Mode == tfjson.ManagedResourceMode && r.Type == "videohost_webhook" {
			out = append(out, r)
		}
	}
	return out
}

// stateResource returns the resource at address.
func stateResource(s *tfjson.State, address string) (*tfjson.StateResource, error) {
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return nil, fmt.Errorf("empty state")
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == address {
			return r, nil
		}
	}
	return nil, fmt.Errorf("%s is not in the state", address)
}

func attrString(r *tfjson.StateResource, name string) string {
	s, _ := r.AttributeValues[name].(string)
	return s
}

// hcl quotes s as an HCL string.
func hcl(s string) string { return fmt.Sprintf("%q", s) }

// hclList renders a list of strings.
func hclList(items ...string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = hcl(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

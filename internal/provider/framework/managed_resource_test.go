package framework_test

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestEveryDeleteByIDHasAFunction: every resource that takes its Delete from deletedByID gives
// it the call that deletes (its writeTarget's deleteByID); a resource with a delete of its own (the upload token's) takes no
// deletedByID, rather than one with a nil call.
func TestEveryDeleteByIDHasAFunction(t *testing.T) {
	var deleting int
	for _, newResource := range (&provider.VideohostProvider{}).Resources(t.Context()) {
		r := newResource()
		v := reflect.ValueOf(r).Elem()
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.Anonymous || f.Type != reflect.TypeFor[framework.DeletedByID]() {
				continue
			}
			deleting++
			if v.Field(i).FieldByName("DeleteByID").IsNil() {
				t.Errorf("%T deletes by id with no function to delete", r)
			}
		}
	}
	if deleting < 5 {
		t.Errorf("only %d resources delete by id", deleting)
	}
}

// TestPlannedUpdateRecordsThePlan: withPlannedUpdate records the plan as it is, and the
// identity of its id, as the watermark's and the upload token's updates did before it.
func TestPlannedUpdateRecordsThePlan(t *testing.T) {
	ctx := t.Context()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"id":  schema.StringAttribute{Computed: true},
		"ttl": schema.Int64Attribute{Optional: true},
	}}
	is := identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true},
	}}
	typ := s.Type().TerraformType(ctx)
	plan := tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, "0123456789abcdef"), "ttl": tftypes.NewValue(tftypes.Number, 60),
	})
	resp := resource.UpdateResponse{
		State:    tfsdk.State{Schema: s, Raw: tftypes.NewValue(typ, nil)},
		Identity: &tfsdk.ResourceIdentity{Schema: is, Raw: tftypes.NewValue(is.Type().TerraformType(ctx), nil)},
	}
	framework.WithPlannedUpdate{}.Update(ctx, resource.UpdateRequest{Plan: tfsdk.Plan{Schema: s, Raw: plan}}, &resp)
	requireNoFrameworkErrors(t, resp.Diagnostics)
	if !resp.State.Raw.Equal(plan) {
		t.Errorf("state %v, want the plan %v", resp.State.Raw, plan)
	}
	var ident framework.IdIdentityModel
	requireNoFrameworkErrors(t, resp.Identity.Get(ctx, &ident))
	if ident.ID.ValueString() != "0123456789abcdef" {
		t.Errorf("identity %v, want the plan's id", ident.ID)
	}
}

// requireNoFrameworkErrors fails the test with diags when they hold an error.
func requireNoFrameworkErrors(t *testing.T, diags diag.Diagnostics) {
	t.Helper()
	if diags.HasError() {
		t.Fatalf("errors: %v", diags)
	}
}

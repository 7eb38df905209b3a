package acctest

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// protoServer is the provider behind its protocol 6 server, configured against one service, as
// Terraform sees it. Tests of identity and list resources call its RPCs directly, so they run
// in every go test, whatever Terraform (if any) is on PATH: Terraform older than 1.12 or 1.14,
// and OpenTofu, never send these calls.
type protoServer struct {
	t        *testing.T
	srv      tfprotov6.ProviderServer
	lists    tfprotov6.ListResourceServer
	schemas  *tfprotov6.GetProviderSchemaResponse
	Identity *tfprotov6.GetResourceIdentitySchemasResponse
}

// NewProtoServer serves the provider and configures it with base_url, api_key and the other
// provider attributes in extra.
func NewProtoServer(t *testing.T, baseURL, apiKey string, extra map[string]tftypes.Value) *protoServer {
	t.Helper()
	for _, env := range []string{framework.EnvAPIKey, framework.EnvEnvironment, framework.EnvBaseURL} {
		t.Setenv(env, "")
	}
	srv := provider.NewServer("test")()
	ctx := t.Context()
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	RequireNoErrors(t, "GetProviderSchema", schemas.Diagnostics)
	identity, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	RequireNoErrors(t, "GetResourceIdentitySchemas", identity.Diagnostics)
	lists, ok := srv.(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatalf("the provider server %T does not serve list resources", srv)
	}
	p := &protoServer{t: t, srv: srv, lists: lists, schemas: schemas, Identity: identity}

	attrs := map[string]tftypes.Value{"base_url": Str(baseURL), "api_key": Str(apiKey)}
	maps.Copy(attrs, extra)
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.15.9",
		Config:           p.dynamic(schemas.Provider.ValueType(), attrs),
	})
	if err != nil {
		t.Fatal(err)
	}
	RequireNoErrors(t, "ConfigureProvider", resp.Diagnostics)
	return p
}

// dynamic encodes an object of typ whose attributes are attrs, every attribute left out null.
func (p *protoServer) dynamic(typ tftypes.Type, attrs map[string]tftypes.Value) *tfprotov6.DynamicValue {
	p.t.Helper()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		p.t.Fatalf("%s is not an object type", typ)
	}
	vals := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	for name := range attrs {
		if _, ok := obj.AttributeTypes[name]; !ok {
			p.t.Fatalf("%s has no attribute %s", typ, name)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		p.t.Fatal(err)
	}
	return &dv
}

// Attributes decodes an object of typ into its attribute values; nil stays nil.
func (p *protoServer) Attributes(typ tftypes.Type, dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	p.t.Helper()
	if dv == nil {
		return nil
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		p.t.Fatal(err)
	}
	if v.IsNull() {
		return nil
	}
	out := map[string]tftypes.Value{}
	if err := v.As(&out); err != nil {
		p.t.Fatal(err)
	}
	return out
}

func (p *protoServer) ResourceType(typeName string) tftypes.Type {
	p.t.Helper()
	s, ok := p.schemas.ResourceSchemas[typeName]
	if !ok {
		p.t.Fatalf("no resource schema %s", typeName)
	}
	return s.ValueType()
}

func (p *protoServer) IdentityType(typeName string) tftypes.Type {
	p.t.Helper()
	s, ok := p.Identity.IdentitySchemas[typeName]
	if !ok {
		p.t.Fatalf("no identity schema %s", typeName)
	}
	return s.ValueType()
}

func (p *protoServer) listType(typeName string) tftypes.Type {
	p.t.Helper()
	s, ok := p.schemas.ListResourceSchemas[typeName]
	if !ok {
		p.t.Fatalf("no list resource schema %s", typeName)
	}
	return s.ValueType()
}

// Listed is one result of ListResource, decoded.
type Listed struct {
	DisplayName string
	Identity    map[string]tftypes.Value
	Resource    map[string]tftypes.Value // nil without include_resource
	Diagnostics []*tfprotov6.Diagnostic
}

// ListQuery is what a list block sends: the list resource's type, the attributes of its config
// block (those left out are null), include_resource and limit.
type ListQuery struct {
	TypeName        string
	Config          map[string]tftypes.Value
	IncludeResource bool
	Limit           int64
}

// ListStream calls ListResource and returns its results as Terraform reads them, one at a time,
// so that a test can look at the service between two results.
func (p *protoServer) ListStream(q ListQuery) func(yield func(Listed) bool) {
	p.t.Helper()
	typeName := q.TypeName
	stream, err := p.lists.ListResource(p.t.Context(), &tfprotov6.ListResourceRequest{
		TypeName:        typeName,
		Config:          p.dynamic(p.listType(typeName), q.Config),
		IncludeResource: q.IncludeResource,
		Limit:           q.Limit,
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return func(yield func(Listed) bool) {
		for r := range stream.Results {
			l := Listed{DisplayName: r.DisplayName, Diagnostics: r.Diagnostics,
				Resource: p.Attributes(p.ResourceType(typeName), r.Resource)}
			if r.Identity != nil {
				l.Identity = p.Attributes(p.IdentityType(typeName), r.Identity.IdentityData)
			}
			if !yield(l) {
				return
			}
		}
	}
}

// List calls ListResource and collects its results.
func (p *protoServer) List(q ListQuery) []Listed {
	p.t.Helper()
	var out []Listed
	for l := range p.ListStream(q) {
		out = append(out, l)
	}
	return out
}

// ValidateList calls ValidateListResourceConfig.
func (p *protoServer) ValidateList(typeName string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	p.t.Helper()
	resp, err := p.lists.ValidateListResourceConfig(p.t.Context(), &tfprotov6.ValidateListResourceConfigRequest{
		TypeName: typeName,
		Config:   p.dynamic(p.listType(typeName), config),
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return resp.Diagnostics
}

// Read calls ReadResource on a state without an identity, as a state written by Terraform
// before 1.12 (or before the provider had identities) is, and returns the new state and
// identity.
func (p *protoServer) Read(typeName string, state map[string]tftypes.Value) (newState, identity map[string]tftypes.Value, diags []*tfprotov6.Diagnostic) {
	p.t.Helper()
	resp, err := p.srv.ReadResource(p.t.Context(), &tfprotov6.ReadResourceRequest{
		TypeName:     typeName,
		CurrentState: p.dynamic(p.ResourceType(typeName), state),
	})
	if err != nil {
		p.t.Fatal(err)
	}
	newState = p.Attributes(p.ResourceType(typeName), resp.NewState)
	if resp.NewIdentity != nil {
		identity = p.Attributes(p.IdentityType(typeName), resp.NewIdentity.IdentityData)
	}
	return newState, identity, resp.Diagnostics
}

// ImportResource calls ImportResourceState with an id (terraform import, or an import block's
// id) or, when identity is not nil, with an import block's identity.
func (p *protoServer) ImportResource(typeName, id string, identity map[string]tftypes.Value) (state, newIdentity map[string]tftypes.Value, diags []*tfprotov6.Diagnostic) {
	p.t.Helper()
	req := &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id}
	if identity != nil {
		req.Identity = &tfprotov6.ResourceIdentityData{IdentityData: p.dynamic(p.IdentityType(typeName), identity)}
	}
	resp, err := p.srv.ImportResourceState(p.t.Context(), req)
	if err != nil {
		p.t.Fatal(err)
	}
	if len(resp.ImportedResources) == 0 {
		return nil, nil, resp.Diagnostics
	}
	imp := resp.ImportedResources[0]
	state = p.Attributes(p.ResourceType(typeName), imp.State)
	if imp.Identity != nil {
		newIdentity = p.Attributes(p.IdentityType(typeName), imp.Identity.IdentityData)
	}
	return state, newIdentity, resp.Diagnostics
}

func RequireNoErrors(t *testing.T, call string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}

// StringOf is the string a decoded attribute holds, "" when it is null or not a string.
func StringOf(v tftypes.Value) string {
	var s string
	if err := v.As(&s); err != nil {
		return ""
	}
	return s
}

func HasAnyError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// Invoke calls InvokeAction and returns its progress messages and its final diagnostics.
func (p *protoServer) Invoke(actionType string, config map[string]tftypes.Value) ([]string, []*tfprotov6.Diagnostic) {
	p.t.Helper()
	s, ok := p.schemas.ActionSchemas[actionType]
	if !ok {
		p.t.Fatalf("no action schema %s", actionType)
	}
	as, ok := p.srv.(tfprotov6.ActionServer)
	if !ok {
		p.t.Fatalf("the provider server %T serves no actions", p.srv)
	}
	stream, err := as.InvokeAction(p.t.Context(), &tfprotov6.InvokeActionRequest{
		ActionType: actionType,
		Config:     p.dynamic(s.Schema.ValueType(), config),
	})
	if err != nil {
		p.t.Fatal(err)
	}
	var progress []string
	var diags []*tfprotov6.Diagnostic
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			diags = e.Diagnostics
		}
	}
	return progress, diags
}

func ErrorText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			b.WriteString(d.Summary + ": " + d.Detail + "\n")
		}
	}
	return b.String()
}

// Move calls MoveResourceState on the provider as Terraform does for a moved block from a
// restapi_object whose state holds attrs, into the resource target.
func (p *protoServer) Move(sourceType, target string, attrs map[string]any) *tfprotov6.MoveResourceStateResponse {
	p.t.Helper()
	raw, err := json.Marshal(attrs)
	if err != nil {
		p.t.Fatal(err)
	}
	resp, err := p.srv.MoveResourceState(p.t.Context(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/mastercard/restapi",
		SourceTypeName:        sourceType,
		SourceSchemaVersion:   0,
		SourceState:           &tfprotov6.RawState{JSON: raw},
		TargetTypeName:        target,
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// DataType is the value type of a data source's configuration.
func (p *protoServer) DataType(typeName string) tftypes.Type {
	p.t.Helper()
	s, ok := p.schemas.DataSourceSchemas[typeName]
	if !ok {
		p.t.Fatalf("no data source schema %s", typeName)
	}
	return s.ValueType()
}

// EphemeralType is the value type of an ephemeral resource's configuration.
func (p *protoServer) EphemeralType(typeName string) tftypes.Type {
	p.t.Helper()
	s, ok := p.schemas.EphemeralResourceSchemas[typeName]
	if !ok {
		p.t.Fatalf("no ephemeral resource schema %s", typeName)
	}
	return s.ValueType()
}

// ListType is the value type of a list resource's configuration block.
func (p *protoServer) ListType(typeName string) tftypes.Type { return p.listType(typeName) }

// ProviderType is the value type of the provider block.
func (p *protoServer) ProviderType() tftypes.Type { return p.schemas.Provider.ValueType() }

// ReadData validates a data source's configuration as Terraform does first, then reads it, and
// returns the state read and the diagnostics of the first call that has an error, or of the
// read.
func (p *protoServer) ReadData(typeName string, config map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic) {
	p.t.Helper()
	typ := p.DataType(typeName)
	cfg := p.dynamic(typ, config)
	v, err := p.srv.ValidateDataResourceConfig(p.t.Context(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		p.t.Fatal(err)
	}
	if HasAnyError(v.Diagnostics) {
		return nil, v.Diagnostics
	}
	resp, err := p.srv.ReadDataSource(p.t.Context(), &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		p.t.Fatal(err)
	}
	return p.Attributes(typ, resp.State), resp.Diagnostics
}

// OpenEphemeral validates an ephemeral resource's configuration, opens it and closes it again,
// and returns the diagnostics of the first call that has an error.
func (p *protoServer) OpenEphemeral(typeName string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	p.t.Helper()
	cfg := p.dynamic(p.EphemeralType(typeName), config)
	v, err := p.srv.ValidateEphemeralResourceConfig(p.t.Context(), &tfprotov6.ValidateEphemeralResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		p.t.Fatal(err)
	}
	if HasAnyError(v.Diagnostics) {
		return v.Diagnostics
	}
	resp, err := p.srv.OpenEphemeralResource(p.t.Context(), &tfprotov6.OpenEphemeralResourceRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		p.t.Fatal(err)
	}
	if HasAnyError(resp.Diagnostics) {
		return resp.Diagnostics
	}
	c, err := p.srv.CloseEphemeralResource(p.t.Context(), &tfprotov6.CloseEphemeralResourceRequest{TypeName: typeName, Private: resp.Private})
	if err != nil {
		p.t.Fatal(err)
	}
	return c.Diagnostics
}

// Create validates a resource's configuration, plans its creation and applies the plan, as
// Terraform does for a new resource (the configuration is the proposed state), and returns the
// new state and the diagnostics of the first call that has an error, or of the apply.
func (p *protoServer) Create(typeName string, config map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic) {
	p.t.Helper()
	return p.change(typeName, nil, config)
}

// Update plans and applies the change of a resource from the state prior to config.
func (p *protoServer) Update(typeName string, prior, config map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic) {
	p.t.Helper()
	return p.change(typeName, prior, config)
}

// change validates config, plans the change from prior (nil: a creation) and applies it.
func (p *protoServer) change(typeName string, prior, config map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic) {
	p.t.Helper()
	ctx := p.t.Context()
	typ := p.ResourceType(typeName)
	cfg := p.dynamic(typ, config)
	v, err := p.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: cfg,
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		p.t.Fatal(err)
	}
	if HasAnyError(v.Diagnostics) {
		return nil, v.Diagnostics
	}
	priorState := p.dynamic(typ, prior)
	if prior == nil {
		nullState, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
		if err != nil {
			p.t.Fatal(err)
		}
		priorState = &nullState
	}
	// The proposed state of an update keeps the prior computed values where the configuration
	// leaves an attribute out, as Terraform's does.
	proposed := map[string]tftypes.Value{}
	maps.Copy(proposed, prior)
	for name, val := range config {
		proposed[name] = val
	}
	plan, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: priorState, ProposedNewState: p.withoutWriteOnly(typeName, typ, proposed), Config: cfg,
	})
	if err != nil {
		p.t.Fatal(err)
	}
	if HasAnyError(plan.Diagnostics) {
		return nil, plan.Diagnostics
	}
	resp, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: priorState, PlannedState: plan.PlannedState, Config: cfg,
		PlannedPrivate: plan.PlannedPrivate,
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return p.Attributes(typ, resp.NewState), resp.Diagnostics
}

// withoutWriteOnly encodes attrs as an object of typ with every write-only attribute of the
// resource's schema (nested ones too) null, as Terraform proposes a new state: write-only
// values are in the configuration only.
func (p *protoServer) withoutWriteOnly(typeName string, typ tftypes.Type, attrs map[string]tftypes.Value) *tfprotov6.DynamicValue {
	p.t.Helper()
	writeOnly := map[string]bool{}
	var walk func(b *tfprotov6.SchemaBlock)
	walk = func(b *tfprotov6.SchemaBlock) {
		for _, a := range b.Attributes {
			if a.WriteOnly {
				writeOnly[a.Name] = true
			}
			if a.NestedType != nil {
				walk(&tfprotov6.SchemaBlock{Attributes: a.NestedType.Attributes})
			}
		}
		for _, nb := range b.BlockTypes {
			walk(nb.Block)
		}
	}
	walk(p.schemas.ResourceSchemas[typeName].Block)
	dv := p.dynamic(typ, attrs)
	v, err := dv.Unmarshal(typ)
	if err != nil {
		p.t.Fatal(err)
	}
	v, err = tftypes.Transform(v, func(path *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		steps := path.Steps()
		if len(steps) == 0 {
			return v, nil
		}
		if name, ok := steps[len(steps)-1].(tftypes.AttributeName); ok && writeOnly[string(name)] {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		p.t.Fatal(err)
	}
	out, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		p.t.Fatal(err)
	}
	return &out
}

package provider

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// NewServer returns the provider's protocol 6 server: the framework's, with each request's
// context let go when the request returns.
//
// The framework's server keeps the cancel function of every request it has served until
// StopProvider, which Terraform sends only on Ctrl-C, so that it could cancel them. Each cancel
// function holds its context and, through the context's parents, everything the request put in
// them: the gRPC stream, and the loggers that terraform-plugin-go builds for every request.
// That is about 12 KiB a request: a plan over 3,000 resources (some 16,000 requests) grew the
// provider to 340 MiB, and a minimal framework provider with no code of ours behaves the same.
// Here the framework sees each request's context through a requestContext that drops it when
// the request returns; what the framework keeps is then a few hundred bytes a request.
// TestServerLetsRequestContextsGo shows the framework's retention and that it ends here.
func NewServer(version string) func() tfprotov6.ProviderServer {
	framework := providerserver.NewProtocol6(New(version)())
	return func() tfprotov6.ProviderServer {
		srv := framework()
		if fs, ok := srv.(frameworkServer); ok {
			return releasingServer{fs}
		}
		return srv
	}
}

// frameworkServer is every server the framework's protocol 6 server is: tf6server serves list
// resources, actions and state stores only from a server that has their methods too.
// TestReleasingServerServesAllTheFrameworkServes fails when a framework release adds one that
// is not here.
type frameworkServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// releasingServer serves each request of the framework's server through a requestContext.
// ListResource and InvokeAction are left as they are: their results are read after they
// return, with their context, and a plan sends few of them. The state store calls are left as
// they are too: the provider has no state store, so the framework answers them at once.
type releasingServer struct {
	frameworkServer
}

// requestContext is a request's context until the request returns, then an ended context
// with no values. Contexts derived from it during the request are the request's children as
// usual, and are cancelled with it.
type requestContext struct {
	ctx atomic.Pointer[context.Context]
}

// endedContext is what a requestContext is once its request has returned.
var endedContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func (c *requestContext) current() context.Context {
	if p := c.ctx.Load(); p != nil {
		return *p
	}
	return endedContext
}

func (c *requestContext) Deadline() (time.Time, bool) { return c.current().Deadline() }
func (c *requestContext) Done() <-chan struct{}       { return c.current().Done() }
func (c *requestContext) Err() error                  { return c.current().Err() }
func (c *requestContext) Value(key any) any           { return c.current().Value(key) }

// serve calls the framework's handler of a request with ctx seen through a requestContext,
// which lets ctx go when the handler returns.
func serve[Req, Resp any](ctx context.Context, req Req, handler func(context.Context, Req) (Resp, error)) (Resp, error) {
	rc := &requestContext{}
	rc.ctx.Store(&ctx)
	defer rc.ctx.Store(nil)
	return handler(rc, req)
}

func (s releasingServer) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return serve(ctx, req, s.frameworkServer.GetMetadata)
}

func (s releasingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return serve(ctx, req, s.frameworkServer.GetProviderSchema)
}

func (s releasingServer) GetResourceIdentitySchemas(ctx context.Context, req *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return serve(ctx, req, s.frameworkServer.GetResourceIdentitySchemas)
}

func (s releasingServer) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.ValidateProviderConfig)
}

func (s releasingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return serve(ctx, req, s.frameworkServer.ConfigureProvider)
}

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.ValidateResourceConfig)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return serve(ctx, req, s.frameworkServer.UpgradeResourceState)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return serve(ctx, req, s.frameworkServer.ReadResource)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return serve(ctx, req, s.frameworkServer.PlanResourceChange)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return serve(ctx, req, s.frameworkServer.ApplyResourceChange)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return serve(ctx, req, s.frameworkServer.ImportResourceState)
}

func (s releasingServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return serve(ctx, req, s.frameworkServer.MoveResourceState)
}

func (s releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return serve(ctx, req, s.frameworkServer.UpgradeResourceIdentity)
}

func (s releasingServer) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.GenerateResourceConfig)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.ValidateDataResourceConfig)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return serve(ctx, req, s.frameworkServer.ReadDataSource)
}

func (s releasingServer) GetFunctions(ctx context.Context, req *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return serve(ctx, req, s.frameworkServer.GetFunctions)
}

func (s releasingServer) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return serve(ctx, req, s.frameworkServer.CallFunction)
}

func (s releasingServer) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.ValidateEphemeralResourceConfig)
}

func (s releasingServer) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return serve(ctx, req, s.frameworkServer.OpenEphemeralResource)
}

func (s releasingServer) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return serve(ctx, req, s.frameworkServer.RenewEphemeralResource)
}

func (s releasingServer) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return serve(ctx, req, s.frameworkServer.CloseEphemeralResource)
}

func (s releasingServer) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.ValidateListResourceConfig)
}

func (s releasingServer) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return serve(ctx, req, s.frameworkServer.ValidateActionConfig)
}

func (s releasingServer) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return serve(ctx, req, s.frameworkServer.PlanAction)
}

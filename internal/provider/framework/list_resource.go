package framework

// The shell every list resource is made of: listResource streams the client's walk of one kind's
// list as the results of terraform query.

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// ListResource is a list resource: terraform query (Terraform 1.14 and later) finds the objects
// of one kind with it, and -generate-config-out writes the resource and import blocks that
// adopt them. Each New<Thing>ListResource below makes one with a listing of what sets it apart;
// NewWebhookListResource is the model. T is the client's type of the objects, C the model of
// the list block's configuration and F the client's filter. A new one needs: a client method
// that returns the walk as an iter.Seq2 (Paginate, never a collected slice); its registration
// in ListResources; an identity on the managed resource (identity.go); and its page in
// templates/list-resources/ with its example in examples/list-resources/ (static_docs_test.go
// checks them).
type ListResource[T, C, F any] struct {
	ResourceBase
	Listing[T, C, F]
}

// Listing is what sets one list resource apart.
type Listing[T, C, F any] struct {
	// Description is the list resource's, and filters the attributes of its list block: the
	// service's list filters.
	Description string
	Filters     map[string]listschema.Attribute
	// Filter is the client's filter of the list block's.
	Filter func(C) F
	// Walk reads the objects page by page.
	Walk func(*videohost.Client, context.Context, F) iter.Seq2[T, error]
	// What names the objects in logs, such as "webhooks".
	What string
	// Id is the object's id: its identity, and the id attribute of its resource.
	Id func(T) string
	// Identity, when set, is the object's identity instead of its id, for a resource identified
	// by more than one attribute (a caption: its video and its language).
	Identity func(T) any
	// DisplayName is the line terraform query prints for the object: words a person
	// recognises it by, not only its id.
	DisplayName func(T) string
	// Model is the resource's state of the object, as the listed object gives it; it is called
	// only when the list block sets include_resource, and must not call the service.
	Model func(context.Context, T) (any, diag.Diagnostics)
	// ErrorSummary titles the diagnostic of a walk that fails, such as "Unable to List Webhooks".
	ErrorSummary string
	// Attrs maps the parameters of the list call to the attributes of the list block.
	Attrs map[string]path.Path
}

// NewListResource returns the list resource typeName ("_webhook") that l describes.
func NewListResource[T, C, F any](typeName string, l Listing[T, C, F]) list.ListResource {
	return &ListResource[T, C, F]{ResourceBase: ResourceBase{TypeName: typeName}, Listing: l}
}

func (r *ListResource[T, C, F]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{MarkdownDescription: r.Description, Attributes: r.Filters}
}

// List streams the objects that the list block's filters select.
func (r *ListResource[T, C, F]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	cfg, ok := ConfiguredModel[C](ctx, r.Pd, req.Config, &diags)
	if !ok {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = r.results(ctx, req, r.Pd, r.Walk(r.Pd.Client, ctx, r.Filter(cfg)))
}

// results streams the objects of walk as list results while the walk reads them: a page is
// read only when the results of the one before it have been pushed, so memory holds one page
// whatever the number of objects, and once the request's limit is reached no further page is
// read. A walk that fails ends the stream with one error result after the results pushed so
// far.
func (l Listing[T, C, F]) results(ctx context.Context, req list.ListRequest, pd *ProviderData, walk iter.Seq2[T, error]) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var pushed int64
		defer func() {
			tflog.Debug(ctx, "listed "+l.What, map[string]any{"results": pushed, "limit": req.Limit, "include_resource": req.IncludeResource})
		}()
		for obj, err := range walk {
			if err != nil {
				var diags diag.Diagnostics
				AddAPIErrorDiagnostics(&diags, l.ErrorSummary, err, pd, l.Attrs)
				push(list.ListResult{Diagnostics: diags})
				return
			}
			if !push(l.result(ctx, req, obj)) {
				return
			}
			pushed++
			// Terraform always sends the list block's limit (100 when the block sets none); a
			// zero limit, from a client of the protocol that sets none, does not bound the walk.
			if req.Limit > 0 && pushed >= req.Limit {
				return
			}
		}
	}
}

// result is the list result of one object.
func (l Listing[T, C, F]) result(ctx context.Context, req list.ListRequest, obj T) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = l.DisplayName(obj)
	if l.Identity != nil {
		r.Diagnostics.Append(r.Identity.Set(ctx, l.Identity(obj))...)
	} else {
		r.Diagnostics.Append(SetIDIdentity(ctx, r.Identity, types.StringValue(l.Id(obj)))...)
	}
	if req.IncludeResource {
		m, diags := l.Model(ctx, obj)
		r.Diagnostics.Append(diags...)
		if !diags.HasError() {
			r.Diagnostics.Append(r.Resource.Set(ctx, m)...)
		}
	}
	return r
}

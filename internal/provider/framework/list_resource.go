package provider

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

// listResource is a list resource: terraform query (Terraform 1.14 and later) finds the objects
// of one kind with it, and -generate-config-out writes the resource and import blocks that
// adopt them. Each New<Thing>ListResource below makes one with a listing of what sets it apart;
// NewWebhookListResource is the model. T is the client's type of the objects, C the model of
// the list block's configuration and F the client's filter. A new one needs: a client method
// that returns the walk as an iter.Seq2 (Paginate, never a collected slice); its registration
// in ListResources; an identity on the managed resource (identity.go); and its page in
// templates/list-resources/ with its example in examples/list-resources/ (static_docs_test.go
// checks them).
type listResource[T, C, F any] struct {
	resourceBase
	listing[T, C, F]
}

// listing is what sets one list resource apart.
type listing[T, C, F any] struct {
	// description is the list resource's, and filters the attributes of its list block: the
	// service's list filters.
	description string
	filters     map[string]listschema.Attribute
	// filter is the client's filter of the list block's.
	filter func(C) F
	// walk reads the objects page by page.
	walk func(*videohost.Client, context.Context, F) iter.Seq2[T, error]
	// what names the objects in logs, such as "webhooks".
	what string
	// id is the object's id: its identity, and the id attribute of its resource.
	id func(T) string
	// identity, when set, is the object's identity instead of its id, for a resource identified
	// by more than one attribute (a caption: its video and its language).
	identity func(T) any
	// displayName is the line terraform query prints for the object: words a person
	// recognises it by, not only its id.
	displayName func(T) string
	// model is the resource's state of the object, as the listed object gives it; it is called
	// only when the list block sets include_resource, and must not call the service.
	model func(context.Context, T) (any, diag.Diagnostics)
	// errorSummary titles the diagnostic of a walk that fails, such as "Unable to List Webhooks".
	errorSummary string
	// attrs maps the parameters of the list call to the attributes of the list block.
	attrs map[string]path.Path
}

// newListResource returns the list resource typeName ("_webhook") that l describes.
func newListResource[T, C, F any](typeName string, l listing[T, C, F]) list.ListResource {
	return &listResource[T, C, F]{resourceBase: resourceBase{typeName: typeName}, listing: l}
}

func (r *listResource[T, C, F]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{MarkdownDescription: r.description, Attributes: r.filters}
}

// List streams the objects that the list block's filters select.
func (r *listResource[T, C, F]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	cfg, ok := configuredModel[C](ctx, r.pd, req.Config, &diags)
	if !ok {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = r.results(ctx, req, r.pd, r.walk(r.pd.client, ctx, r.filter(cfg)))
}

// results streams the objects of walk as list results while the walk reads them: a page is
// read only when the results of the one before it have been pushed, so memory holds one page
// whatever the number of objects, and once the request's limit is reached no further page is
// read. A walk that fails ends the stream with one error result after the results pushed so
// far.
func (l listing[T, C, F]) results(ctx context.Context, req list.ListRequest, pd *providerData, walk iter.Seq2[T, error]) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var pushed int64
		defer func() {
			tflog.Debug(ctx, "listed "+l.what, map[string]any{"results": pushed, "limit": req.Limit, "include_resource": req.IncludeResource})
		}()
		for obj, err := range walk {
			if err != nil {
				var diags diag.Diagnostics
				addAPIErrorDiagnostics(&diags, l.errorSummary, err, pd, l.attrs)
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
func (l listing[T, C, F]) result(ctx context.Context, req list.ListRequest, obj T) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = l.displayName(obj)
	if l.identity != nil {
		r.Diagnostics.Append(r.Identity.Set(ctx, l.identity(obj))...)
	} else {
		r.Diagnostics.Append(setIDIdentity(ctx, r.Identity, types.StringValue(l.id(obj)))...)
	}
	if req.IncludeResource {
		m, diags := l.model(ctx, obj)
		r.Diagnostics.Append(diags...)
		if !diags.HasError() {
			r.Diagnostics.Append(r.Resource.Set(ctx, m)...)
		}
	}
	return r
}

package provider

// The shells every data source is made of: objectDataSource reads one object by its id,
// listDataSource lists every page of the objects its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// objectDataSource is a data source that reads one object of the service by its id. Each
// New<Thing>DataSource below makes one with an objectRead of what sets it apart; the schema,
// the Read and its diagnostics are the same for all of them.
type objectDataSource[T any] struct {
	dataSourceBase
	objectRead[T]
}

var _ datasource.DataSourceWithConfigure = (*objectDataSource[videohost.Video])(nil)

// objectRead is what sets one object data source apart.
type objectRead[T any] struct {
	// description is the data source's: "Reads one video of the workspace by its id."
	description string
	// attributes are the object's computed attributes (<thing>DataAttributes); the data
	// source makes their id required.
	attributes func() map[string]schema.Attribute
	// idDescription describes the id to read; idWhat and listedBy are serviceIDValidators'.
	idDescription, idWhat, listedBy string
	// idParam is the service's name of the id, as a not-found names it: "videoId".
	idParam string
	// title names the object in the summary of a failed read: "Video".
	title string
	// get reads the object by its id.
	get func(*videohost.Client, context.Context, string) (T, error)
	// state is the data source's state of the object (<thing>ModelFrom).
	state func(context.Context, T) (any, diag.Diagnostics)
}

// newObjectDataSource returns the data source typeName ("_video") that o describes.
func newObjectDataSource[T any](typeName string, o objectRead[T]) datasource.DataSource {
	return &objectDataSource[T]{dataSourceBase: dataSourceBase{typeName: typeName}, objectRead: o}
}

func (d *objectDataSource[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := d.attributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: d.idDescription,
		Required:            true,
		Validators:          serviceIDValidators(d.idWhat, d.listedBy),
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: attrs}
}

// Read reads the object whose id the configuration gives; a not-found is an error on id.
func (d *objectDataSource[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	id, ok := configuredID(ctx, d.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	obj, err := d.get(d.pd.client, ctx, id)
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+d.title, err, d.pd,
			map[string]path.Path{d.idParam: path.Root("id")})
		return
	}
	state, diags := d.state(ctx, obj)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// listDataSource is a data source that lists the objects of one kind, every page, that match
// the service's filters: its configuration is the filters and its one computed attribute the
// list. Each New<Things>DataSource below makes one with a listRead of what sets it apart: T is
// the client's type of the objects, M the data source's model (the filters and the list) and F
// the client's filter.
type listDataSource[T, M, F any] struct {
	dataSourceBase
	listRead[T, M, F]
	// elem is the type of one item, from itemAttributes.
	elem types.ObjectType
}

// listRead is what sets one list data source apart.
type listRead[T, M, F any] struct {
	// description is the data source's: "Lists the videos of the workspace that match ...".
	description string
	// filters are the optional attributes that become the list call's parameters.
	filters map[string]schema.Attribute
	// items names the list attribute ("videos") and describes it; itemAttributes are the
	// attributes of one item (<thing>DataAttributes).
	items, itemsDescription string
	itemAttributes          func() map[string]schema.Attribute
	// title names the objects in the summary of a failed list: "Videos".
	title string
	// filterPaths maps the list call's parameters, as a 400 names them, to the filters.
	filterPaths map[string]path.Path
	// filter is the client's filter of the configuration's.
	filter func(context.Context, M) (F, diag.Diagnostics)
	// list reads every page of the objects that the filter selects.
	list func(*videohost.Client, context.Context, F) ([]T, error)
	// object is one item of the list (the model's object(); list_values.go says why).
	object func(context.Context, T) (types.Object, diag.Diagnostics)
}

// newListDataSource returns the data source typeName ("_videos") that l describes.
func newListDataSource[T, M, F any](typeName string, l listRead[T, M, F]) datasource.DataSource {
	return &listDataSource[T, M, F]{
		dataSourceBase: dataSourceBase{typeName: typeName}, listRead: l, elem: objectTypeOf(l.itemAttributes()),
	}
}

func (d *listDataSource[T, M, F]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := make(map[string]schema.Attribute, len(d.filters)+1)
	for name, a := range d.filters {
		attrs[name] = a
	}
	attrs[d.items] = schema.ListNestedAttribute{
		MarkdownDescription: d.itemsDescription,
		Computed:            true,
		NestedObject:        schema.NestedAttributeObject{Attributes: d.itemAttributes()},
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: attrs}
}

// Read lists the objects that the configuration's filters select; a filter the service
// refuses is an error on that filter.
func (d *listDataSource[T, M, F]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, ok := configuredModel[M](ctx, d.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	f, diags := d.filter(ctx, cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	found, err := d.list(d.pd.client, ctx, f)
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List "+d.title, err, d.pd, d.filterPaths)
		return
	}
	items, diags := listValue(d.elem, found, func(obj T) (types.Object, diag.Diagnostics) { return d.object(ctx, obj) })
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The configuration, its list still null, then the list.
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(d.items), items)...)
}

package framework

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
	DataSourceBase
	ObjectRead[T]
}

var _ datasource.DataSourceWithConfigure = (*objectDataSource[videohost.Video])(nil)

// ObjectRead is what sets one object data source apart.
type ObjectRead[T any] struct {
	// Description is the data source's: "Reads one video of the workspace by its id."
	Description string
	// Attributes are the object's computed attributes (<thing>DataAttributes); the data
	// source makes their id required.
	Attributes func() map[string]schema.Attribute
	// IdDescription describes the id to read; idWhat and listedBy are serviceIDValidators'.
	IdDescription, IdWhat, ListedBy string
	// IdParam is the service's name of the id, as a not-found names it: "videoId".
	IdParam string
	// Title names the object in the summary of a failed read: "Video".
	Title string
	// Get reads the object by its id.
	Get func(*videohost.Client, context.Context, string) (T, error)
	// State is the data source's state of the object (<thing>ModelFrom).
	State func(context.Context, T) (any, diag.Diagnostics)
}

// NewObjectDataSource returns the data source typeName ("_video") that o describes.
func NewObjectDataSource[T any](typeName string, o ObjectRead[T]) datasource.DataSource {
	return &objectDataSource[T]{DataSourceBase: DataSourceBase{TypeName: typeName}, ObjectRead: o}
}

func (d *objectDataSource[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := d.Attributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: d.IdDescription,
		Required:            true,
		Validators:          ServiceIDValidators(d.IdWhat, d.ListedBy),
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.Description, Attributes: attrs}
}

// Read reads the object whose id the configuration gives; a not-found is an error on id.
func (d *objectDataSource[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	id, ok := ConfiguredID(ctx, d.Pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	obj, err := d.Get(d.Pd.Client, ctx, id)
	if err != nil {
		AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+d.Title, err, d.Pd,
			map[string]path.Path{d.IdParam: path.Root("id")})
		return
	}
	state, diags := d.State(ctx, obj)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// ListDataSource is a data source that lists the objects of one kind, every page, that match
// the service's filters: its configuration is the filters and its one computed attribute the
// list. Each New<Things>DataSource below makes one with a listRead of what sets it apart: T is
// the client's type of the objects, M the data source's model (the filters and the list) and F
// the client's filter.
type ListDataSource[T, M, F any] struct {
	DataSourceBase
	ListRead[T, M, F]
	// elem is the type of one item, from itemAttributes.
	elem types.ObjectType
}

// ListRead is what sets one list data source apart.
type ListRead[T, M, F any] struct {
	// Description is the data source's: "Lists the videos of the workspace that match ...".
	Description string
	// Filters are the optional attributes that become the list call's parameters.
	Filters map[string]schema.Attribute
	// Items names the list attribute ("videos") and describes it; itemAttributes are the
	// attributes of one item (<thing>DataAttributes).
	Items, ItemsDescription string
	ItemAttributes          func() map[string]schema.Attribute
	// Title names the objects in the summary of a failed list: "Videos".
	Title string
	// FilterPaths maps the list call's parameters, as a 400 names them, to the filters.
	FilterPaths map[string]path.Path
	// Filter is the client's filter of the configuration's.
	Filter func(context.Context, M) (F, diag.Diagnostics)
	// List reads every page of the objects that the filter selects.
	List func(*videohost.Client, context.Context, F) ([]T, error)
	// Object is one item of the list (the model's object(); list_values.go says why).
	Object func(context.Context, T) (types.Object, diag.Diagnostics)
}

// NewListDataSource returns the data source typeName ("_videos") that l describes.
func NewListDataSource[T, M, F any](typeName string, l ListRead[T, M, F]) datasource.DataSource {
	return &ListDataSource[T, M, F]{
		DataSourceBase: DataSourceBase{TypeName: typeName}, ListRead: l, elem: ObjectTypeOf(l.ItemAttributes()),
	}
}

func (d *ListDataSource[T, M, F]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := make(map[string]schema.Attribute, len(d.Filters)+1)
	for name, a := range d.Filters {
		attrs[name] = a
	}
	attrs[d.Items] = schema.ListNestedAttribute{
		MarkdownDescription: d.ItemsDescription,
		Computed:            true,
		NestedObject:        schema.NestedAttributeObject{Attributes: d.ItemAttributes()},
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.Description, Attributes: attrs}
}

// Read lists the objects that the configuration's filters select; a filter the service
// refuses is an error on that filter.
func (d *ListDataSource[T, M, F]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, ok := ConfiguredModel[M](ctx, d.Pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	f, diags := d.Filter(ctx, cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	found, err := d.List(d.Pd.Client, ctx, f)
	if err != nil {
		AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List "+d.Title, err, d.Pd, d.FilterPaths)
		return
	}
	items, diags := ListValue(d.elem, found, func(obj T) (types.Object, diag.Diagnostics) { return d.Object(ctx, obj) })
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The configuration, its list still null, then the list.
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(d.Items), items)...)
}

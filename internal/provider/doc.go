// Package provider is the Terraform side of the video hosting service: schemas, plan
// modifiers, validators, state mapping, diagnostics and import. It knows nothing of HTTP or
// JSON; every call to the service goes through internal/videohost.
//
// # The template
//
// What every data source, list resource and resource does the same way is written once, in a
// shell that each fills with what sets it apart; a new one copies its neighbours.
//
//   - Models: a kind of object has one model (models.go, player_theme_model.go): its state,
//     <thing>DataAttributes() with its computed attributes, the converter <thing>ModelFrom(...)
//     from the client's type, and object(), which builds it as an element of a list (list_values.go
//     says why; add the model to TestObjectsMatchReflection).
//   - Data sources (data_sources.go): New<Thing>DataSource is a newObjectDataSource, which reads
//     one object by its id; New<Things>DataSource a newListDataSource, which lists every page of
//     the objects that its filters select. The shells check that the provider is configured, read
//     the configuration, call the client, turn an error into diagnostics with one attribute map
//     (a not-found becomes an error on id, a 400's problems errors on the filters), convert and
//     set the state. Descriptions: "Reads one <thing> of the workspace by its id." and "Lists
//     the <things> of the workspace ..."; each attribute says what it is, its default and when
//     it is null.
//   - List resources (list_resources.go): a newListResource per managed resource, which streams
//     the client's walk of the list as results for terraform query.
//   - Resources: <thing>_resource.go embeds managedBase (managed_resource.go), which gives the
//     identity, the import by id, the delete and the rules of a refresh; the resource's own file
//     has its schema, Create, Read and Update. Creates and deletes go through resource_writes.go,
//     which settles interrupted writes the same way for all.
package provider

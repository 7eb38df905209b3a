// Package provider is the Terraform side of the video hosting service, and its registry: schemas,
// plan modifiers, validators, state mapping, diagnostics and import live in the kinds' folders
// below it. It knows nothing of HTTP or
// JSON; every call to the service goes through internal/videohost, and everything about the
// user's local files that needs no Terraform (opening, hashing, the records of hashes, WebVTT
// and image checks) is internal/localfile.
//
// # Where each thing lives
//
// One folder per kind, each holding the same file names, so that a reader knows where to look
// before opening anything (as in Cloudflare's v5 provider); provider.go is the one registry:
//
//   - accesstoken/: the access token ephemeral resource.
//   - analytics/: the analytics data sources.
//   - livestream/: live streams.
//   - playertheme/: player themes and their logos.
//   - tag/: the tags data source.
//   - uploadtoken/: upload tokens, resource and ephemeral.
//   - video/: videos, discarded videos and their restore.
//   - videocaption/: captions.
//   - videochapter/: chapters.
//   - videosummary/: summaries.
//   - watermark/: watermarks.
//   - webhook/: webhooks, the check action and the signature functions.
//   - track/: what captions and chapters share.
//   - framework/: the shared Terraform glue (its doc.go lists it).
//
// Inside a kind's folder:
//
//   - resource.go: the resource's type, its interface assertions, schema, Create, Read, Update,
//     Delete, ImportState and identity.
//   - model.go: the kind's models (the state of its data sources, list resource and resource),
//     its DataAttributes and the converters from the client's types. A model that one file alone
//     uses (the configuration of a list data source, an action or an ephemeral resource) stays in
//     that file.
//   - plan.go: ModifyPlan and ValidateConfig, the checks made before any request.
//   - writes.go (and <what>_writes.go): the kind's framework.WriteTarget (with the call that
//     deletes an object by id), the request bodies built from the plan, and its create, update
//     and delete paths through the shared writes. Every request that changes something is sent
//     from a writes file, and every read from a read path (a data source, a list resource, a
//     Read, a plan, an action); writes_rule_test.go names the paths and checks them on types,
//     by the called method's own receiver (through an embedding struct or an interface too).
//   - data_source.go (one object by id), list_data_source.go (a list), list_resource.go,
//     move_state.go, ephemeral_resource.go, <verb>_action.go, <name>_function.go.
//   - doc.go names what the folder registers; catalogue_test.go checks it, and the tables of
//     README.md, DESIGN.md and docs/index.md, against provider.go both ways.
//   - A test file is named after the source file it tests (plan.go: plan_test.go); tests are in
//     the package <kind>_test and take the acceptance harness from internal/acctest, where the
//     helpers that several kinds' tests share also live. The tests of the whole provider are in
//     this folder, named for what they check (soak_test.go, static_docs_test.go,
//     api_coverage_test.go, local_files_test.go, writes_rule_test.go, catalogue_test.go).
//
// # The template
//
// What every data source, list resource and resource does the same way is written once, in a
// shell that each fills with what sets it apart; a new one copies its neighbours.
//
//   - Models: a kind of object has one model (<kind>/model.go): its state,
//     <Thing>DataAttributes() with its computed attributes, the converter <Thing>ModelFrom(...)
//     from the client's type, and Object(), which builds it as an element of a list
//     (framework/list_values.go says why; add the model to TestObjectsMatchReflection). A resource whose state holds what
//     the service never shows (a live stream's write-only keys; a video's source, clip, watermark,
//     wait_for and timeouts) has a resource model of its own beside it (LiveStreamResourceModel,
//     VideoResourceModel), which keeps those values from the plan or the prior state and takes the
//     rest from the client's type.
//   - Data sources (framework/data_source.go): New<Thing>DataSource is a
//     framework.NewObjectDataSource, which reads one object by its id; New<Things>DataSource a
//     framework.NewListDataSource, which lists every page of
//     the objects that its filters select. The shells check that the provider is configured, read
//     the configuration, call the client, turn an error into diagnostics with one attribute map
//     (a not-found becomes an error on id, a 400's problems errors on the filters), convert and
//     set the state. Descriptions: "Reads one <thing> of the workspace by its id." and "Lists
//     the <things> of the workspace ..."; each attribute says what it is, its default and when
//     it is null.
//   - List resources (framework/list_resource.go): a framework.NewListResource per managed resource, which streams
//     the client's walk of the list as results for terraform query.
//   - Resources: <kind>/resource.go embeds the pieces of framework/managed_resource.go that it
//     needs: ManagedBase (its name for the writes and the rules of a refresh, ReadRemote),
//     DeletedByID (the delete), WithIDImport (the identity and the import by id) and
//     WithPlannedUpdate (an update that sends nothing); the resource's own file has its schema,
//     Create, Read and Update. Creates and deletes go through framework/writes.go, which settles
//     interrupted writes the same way for all.
//   - Files as sources: an attribute that names a local file to upload (a video's source_file)
//     is checked without a request in ModifyPlan (internal/localfile: missing, unreadable, empty,
//     not a regular file, too large; not in ValidateConfig, since terraform validate may run where
//     the files are not), and carries a computed <name>_sha256 taken there; the apply compares
//     the file with it before and after the upload.
//   - Transfers after a create: when a create is followed by a transfer that may be cut short
//     (a video's upload), the object is recorded once the create returns it, and a transfer
//     that was interrupted or outlasted its retries is a warning, not an error: a computed
//     attribute says what is missing (source_bytes_missing), and ModifyPlan plans it as unknown
//     with a warning, so that the next apply resumes it in place. Only what would record other
//     bytes than the plan's (a file that changed) is an error.
//
// # Serving
//
// NewServer (server.go) is the framework's protocol 6 server with each request's
// context let go when the request returns; the framework alone keeps every one until Ctrl-C.
// internal/lifecycle serves it, and the tests' provider factories use it, so that every test runs
// through it. Leftovers (leftovers.go) is what the kinds leave open at the end of a run (the
// ephemeral upload tokens Terraform did not close), through which the lifecycle deletes them
// without naming a kind.
package provider

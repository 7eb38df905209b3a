package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Teams that kept the service's webhooks, live streams and player themes as code before this
// provider existed did it with the generic REST provider (Mastercard/restapi): a restapi_object
// whose path is the collection's. A moved block (Terraform 1.8+, OpenTofu 1.10+) hands such an
// object to the resource of this provider that manages its kind, without a replacement: the
// move builds the state from what restapi's state holds, and sends nothing to the service; the
// refresh that follows in the same plan reads the object, as after an import.

// restapiObjectType is the resource type of the generic REST provider that the moves take.
const restapiObjectType = "restapi_object"

// restapiPaths are the paths of a restapi_object that a move takes, and the resource each goes
// to, in the order the diagnostics name them.
var restapiPaths = []struct{ path, typeName string }{
	{"/webhooks", "videohost_webhook"},
	{"/live-streams", "videohost_live_stream"},
	{"/players", "videohost_player_theme"},
}

// restapiPathsText names the paths a move takes and where each goes, for diagnostics.
func restapiPathsText() string {
	parts := make([]string, len(restapiPaths))
	for i, p := range restapiPaths {
		parts[i] = fmt.Sprintf("%q to %s", p.path, p.typeName)
	}
	return strings.Join(parts, ", ")
}

// restapiState is the part of a restapi_object's state that a move reads. Both major versions of
// the provider that users run (2.x on SDKv2, 3.x on the plugin framework) keep these attributes
// under these names: id, the path, the last answer of the service (api_response, a JSON string)
// and the answer of the create (create_response).
type restapiState struct {
	ID             *string `json:"id"`
	Path           *string `json:"path"`
	APIResponse    *string `json:"api_response"`
	CreateResponse *string `json:"create_response"`
}

// body is the service's last answer that restapi kept, else its answer to the create; empty
// when it kept neither (an object imported into restapi and never read, say).
func (s restapiState) body() string {
	for _, b := range []*string{s.APIResponse, s.CreateResponse} {
		if b != nil && strings.TrimSpace(*b) != "" {
			return *b
		}
	}
	return ""
}

// restapiMoved is what a move made of one restapi_object: the model of the target resource and
// its id. model is nil when restapi's state held no answer of the service: the state then
// holds the id alone, as after an import, and the refresh reads the rest.
type restapiMoved struct {
	id    string
	model any
}

// RestapiStateMovers are the state movers of the resource typeName, which takes restapi_objects
// of path wantPath; build makes its model from the service's answer that restapi kept, id
// being the object's id.
func RestapiStateMovers(typeName, wantPath string, build func(ctx context.Context, body []byte, id string) (any, error)) []resource.StateMover {
	return []resource.StateMover{{
		StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			if req.SourceTypeName != restapiObjectType {
				// Not ours to take: the framework says that no mover took it.
				return
			}
			moved, ok := readRestapiObject(ctx, req, typeName, wantPath, build, &resp.Diagnostics)
			if !ok {
				return
			}
			id := types.StringValue(moved.id)
			if moved.model == nil {
				resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), id)...)
			} else {
				resp.Diagnostics.Append(resp.TargetState.Set(ctx, moved.model)...)
			}
			resp.Diagnostics.Append(SetIDIdentity(ctx, resp.TargetIdentity, id)...)
		},
	}}
}

// readRestapiObject reads the restapi_object of req for the resource typeName, which takes the
// path wantPath; false, with an error that names the paths the moves take, when it is not one
// it can take.
func readRestapiObject(ctx context.Context, req resource.MoveStateRequest, typeName, wantPath string,
	build func(ctx context.Context, body []byte, id string) (any, error), diags *diag.Diagnostics,
) (restapiMoved, bool) {
	refuse := func(why string) (restapiMoved, bool) {
		diags.AddError("Cannot Move This restapi_object",
			fmt.Sprintf("A moved block into %s takes a %s of the generic REST provider (%s) whose path is %q. %s.\n\n"+
				"The moves from %s take the paths %s. An object of another path stays with the REST provider, "+
				"or is brought in with an import block instead of a moved block.",
				typeName, restapiObjectType, req.SourceProviderAddress, wantPath, why, restapiObjectType, restapiPathsText()))
		return restapiMoved{}, false
	}
	if req.SourceRawState == nil || len(req.SourceRawState.JSON) == 0 {
		return refuse("Its state holds nothing to read (no JSON state)")
	}
	var src restapiState
	if err := json.Unmarshal(req.SourceRawState.JSON, &src); err != nil {
		return refuse("Its state cannot be read: " + err.Error())
	}
	if src.Path == nil {
		return refuse("Its state has no path")
	}
	got := "/" + strings.Trim(strings.TrimSpace(*src.Path), "/")
	if got != wantPath {
		for _, p := range restapiPaths {
			if p.path == got {
				return refuse(fmt.Sprintf("Its path is %q, which moves to %s instead: change the moved block's `to`", *src.Path, p.typeName))
			}
		}
		return refuse(fmt.Sprintf("Its path is %q, which is not an object this provider manages", *src.Path))
	}
	if src.ID == nil || *src.ID == "" {
		return refuse("Its state has no id")
	}
	if why := IdProblem(*src.ID); why != "" {
		return refuse(fmt.Sprintf("Its id %q is not an id the service gives: %s", *src.ID, why))
	}
	body := src.body()
	if body == "" {
		return restapiMoved{id: *src.ID}, true
	}
	model, err := build(ctx, []byte(body), *src.ID)
	if err != nil {
		return refuse("The answer of the service that its state keeps (api_response) cannot be read: " + err.Error())
	}
	return restapiMoved{id: *src.ID, model: model}, true
}

// SameID fails when the object the service answered with is not the object of id: restapi's id
// and the answer's own id differ when its id_attribute named another member.
func SameID(kind, answered, id string) error {
	if answered != "" && answered != id {
		return fmt.Errorf("it is the %s %q, not %q, the id of the restapi_object (check the id_attribute it was created with)", kind, answered, id)
	}
	return nil
}

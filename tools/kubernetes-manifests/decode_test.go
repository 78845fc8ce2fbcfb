package manifests

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	k8sjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// dir is the example, from this package's directory (go test runs here).
const dir = "../../examples/relay-kubernetes"

// What the relay's image and the issue fix.
const (
	relayUser    = 65532 // the image's user and group
	webhookPort  = 8080  // the image's PORT
	minGrace     = 45    // seconds: the guide's --stop-timeout 45
	healthPath   = "/healthz"
	dataMount    = "/data" // the image's entrypoint keeps its state in /data/relay
	minMemLimit  = "32Mi"  // the relay's accept benchmark bounds its peak RSS at 30 MB
	secretEnv    = "JOINIT_RELAY_SECRET"
	metricsFlag  = "metrics-listen"
	relayImage   = "joinit-relay" // the name kustomization.yaml's images entry replaces
	kustFileName = "kustomization.yaml"
)

// backends are the relay's backend flags and the token each needs.
var backends = map[string]string{"tfe-workspace": "TFE_TOKEN", "github-workflow": "GITHUB_TOKEN"}

// decoder decodes by apiVersion and kind into the registered Go types,
// strictly: an unknown field, a field whose case differs (JSON in Go
// matches field names case-insensitively; this decoder does not) and a
// key given twice are errors naming the field's path.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, networkingv1.AddToScheme, monitoringv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// object is one decoded document and where it came from.
type object struct {
	where string // file (document n), or "kustomize build"
	obj   runtime.Object
	doc   []byte // the YAML it was decoded from
}

func (o object) String() string {
	kind := o.obj.GetObjectKind().GroupVersionKind().Kind
	name := ""
	if m, ok := o.obj.(interface{ GetName() string }); ok {
		name = m.GetName()
	}
	return fmt.Sprintf("%s: %s %s", o.where, kind, name)
}

// decodeStrict decodes one YAML document into its Go type.
func decodeStrict(doc []byte) (runtime.Object, error) {
	obj, gvk, err := decoder.Decode(doc, nil, nil)
	if err != nil {
		if gvk != nil && gvk.Kind != "" {
			return nil, fmt.Errorf("%s %s: %w", gvk.GroupVersion(), gvk.Kind, err)
		}
		return nil, err
	}
	return obj, nil
}

// documents splits a YAML file into its documents, leaving out those that
// hold only comments.
func documents(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if string(bytes.TrimSpace(j)) != "null" {
			docs = append(docs, doc)
		}
	}
}

// yamlFiles are the directory's YAML files but kustomization.yaml.
func yamlFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) && name != kustFileName {
			files = append(files, name)
		}
	}
	if len(files) == 0 {
		t.Fatalf("%s holds no YAML file", dir)
	}
	return files
}

// fileObjects decodes every YAML file of the directory strictly; a file
// that fails is an error naming it.
func fileObjects(t *testing.T) []object {
	t.Helper()
	var objs []object
	for _, name := range yamlFiles(t) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		docs, err := documents(data)
		if err != nil {
			t.Errorf("%s: not YAML: %v", name, err)
			continue
		}
		if len(docs) == 0 {
			t.Errorf("%s: holds no object", name)
		}
		for i, doc := range docs {
			where := name
			if len(docs) > 1 {
				where = fmt.Sprintf("%s (document %d)", name, i+1)
			}
			obj, err := decodeStrict(doc)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			objs = append(objs, object{where, obj, doc})
		}
	}
	return objs
}

// kustomization decodes kustomization.yaml strictly into kustomize's type.
func kustomization(t *testing.T) *types.Kustomization {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, kustFileName))
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		t.Fatalf("%s: %v", kustFileName, err)
	}
	var k types.Kustomization
	strictErrs, err := k8sjson.UnmarshalStrict(j, &k)
	if err != nil {
		t.Fatalf("%s: %v", kustFileName, err)
	}
	for _, e := range strictErrs {
		t.Errorf("%s: %v", kustFileName, e)
	}
	if t.Failed() {
		t.FailNow()
	}
	return &k
}

// build runs kustomize on the directory, from the disk, and decodes each
// object it builds strictly.
func build(t *testing.T) []object {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	objs := decodeBuilt(t, resources)
	if t.Failed() {
		t.FailNow()
	}
	return objs
}

// decodeBuilt decodes each object kustomize built strictly; one that fails
// is an error naming it.
func decodeBuilt(t *testing.T, resources resmap.ResMap) []object {
	t.Helper()
	var objs []object
	for _, r := range resources.Resources() {
		doc, err := r.AsYAML()
		if err != nil {
			t.Fatalf("kustomize build: %s: %v", r.CurId(), err)
		}
		obj, err := decodeStrict(doc)
		if err != nil {
			t.Errorf("kustomize build: %s: %v", r.CurId(), err)
			continue
		}
		objs = append(objs, object{"kustomize build", obj, doc})
	}
	return objs
}

// only returns the one object of type T among objs, or fails saying how
// many there are.
func only[T runtime.Object](t *testing.T, objs []object, what string) (T, object) {
	t.Helper()
	var found []object
	for _, o := range objs {
		if _, ok := o.obj.(T); ok {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		var zero T
		t.Fatalf("want exactly one %s, found %d: %v", what, len(found), found)
		return zero, object{}
	}
	return found[0].obj.(T), found[0]
}

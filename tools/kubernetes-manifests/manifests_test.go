// Package manifests checks examples/relay-kubernetes (make k8s-check, which
// CI runs) with the field's own libraries: kustomize's krusty builds the
// directory as `kubectl apply -k` would, every object built and every YAML
// file beside it (the optional ones too) is decoded strictly into its Go
// type by apiVersion and kind (k8s.io/api; the Prometheus Operator's for a
// PodMonitor), kustomization.yaml into kustomize's own type, and the
// properties issue 63 asks of the relay's pod are asserted on the decoded
// structs, with Pod Security Admission's restricted profile evaluated by
// its own code. It is a module of its own, like tools/openstack-provider,
// so that Kubernetes' libraries never meet the provider's.
package manifests

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	k8sjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
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
			objs = append(objs, object{where, obj})
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
		objs = append(objs, object{"kustomize build", obj})
	}
	if t.Failed() {
		t.FailNow()
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

func checkKustomization(t *testing.T, k *types.Kustomization) {
	for _, r := range k.Resources {
		if strings.Contains(r, "secret") {
			t.Errorf("%s: resources lists %s: the Secret is created with kubectl, never from a file in git (README.md)", kustFileName, r)
		}
	}
	if len(k.SecretGenerator) > 0 {
		t.Errorf("%s: has a secretGenerator: a secret's value would come from a file beside it; the Secret is created with kubectl (README.md)", kustFileName)
	}
	if k.Namespace == "" {
		t.Errorf("%s: sets no namespace", kustFileName)
	}
	i := slices.IndexFunc(k.Images, func(im types.Image) bool { return im.Name == relayImage })
	switch {
	case i < 0:
		t.Errorf("%s: no images entry for %s: the image and its tag are set there", kustFileName, relayImage)
	case k.Images[i].NewName == "":
		t.Errorf("%s: images entry %s sets no newName (the registry's image)", kustFileName, relayImage)
	case k.Images[i].NewTag == "" && k.Images[i].Digest == "":
		t.Errorf("%s: images entry %s sets neither newTag nor digest: the image would be :latest", kustFileName, relayImage)
	case k.Images[i].NewTag == "latest":
		t.Errorf("%s: images entry %s is :latest: pin a release", kustFileName, relayImage)
	}
}

// TestRelayKubernetes decodes kustomization.yaml, every YAML file beside
// it and what kustomize builds, each strictly (an error names the file or
// the built object, and the field's path), then checks what kubectl
// apply -k applies and the optional files against it.
func TestRelayKubernetes(t *testing.T) {
	k := kustomization(t)
	files := fileObjects(t)
	built := build(t)
	t.Run("kustomization", func(t *testing.T) { checkKustomization(t, k) })
	t.Run("build", func(t *testing.T) { checkBuild(t, k, built) })
	t.Run("optional files", func(t *testing.T) { checkOptionalFiles(t, files, built) })
}

// checkBuild checks what kubectl apply -k applies.
func checkBuild(t *testing.T, k *types.Kustomization, objs []object) {
	for _, o := range objs {
		if _, ok := o.obj.(*corev1.Secret); ok {
			t.Errorf("%s: the build holds a Secret: it is created with kubectl, never from a file in git (README.md)", o)
		}
		if m, ok := o.obj.(interface{ GetNamespace() string }); ok {
			if _, isNS := o.obj.(*corev1.Namespace); !isNS && m.GetNamespace() != k.Namespace {
				t.Errorf("%s: namespace %q, want %q (kustomization.yaml's)", o, m.GetNamespace(), k.Namespace)
			}
		}
	}
	ns, _ := only[*corev1.Namespace](t, objs, "Namespace")
	if ns.Name != k.Namespace {
		t.Errorf("Namespace %s: is not kustomization.yaml's namespace %s", ns.Name, k.Namespace)
	}
	d, _ := only[*appsv1.Deployment](t, objs, "Deployment")
	checkDeployment(t, d, objs)
	checkPodSecurity(t, d, ns)
	svc, _ := only[*corev1.Service](t, objs, "Service")
	checkService(t, svc, d)
}

// relayContainer is the pod's one container, the relay.
func relayContainer(t *testing.T, d *appsv1.Deployment) *corev1.Container {
	t.Helper()
	cs := d.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("Deployment %s: %d containers, want 1 (the relay)", d.Name, len(cs))
	}
	return &cs[0]
}

// containerPort resolves a port given by name or number to the container's
// port number; 0 when it names no port of the container.
func containerPort(c *corev1.Container, p intstr.IntOrString) int32 {
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp.ContainerPort
		}
	}
	return 0
}

// portNamed is the container's port of that name; 0 when there is none.
func portNamed(c *corev1.Container, name string) int32 {
	return containerPort(c, intstr.FromString(name))
}

// flagValue is the value of -name (or --name) in args, as Go's flag
// package reads it: -name=value or -name value; ok says it is there.
func flagValue(args []string, name string) (value string, ok bool) {
	for i, a := range args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if v, found := strings.CutPrefix(a, name+"="); found {
			value, ok = v, true
		} else if a == name && i+1 < len(args) {
			value, ok = args[i+1], true
		}
	}
	return value, ok
}

// metricsPort is the port -metrics-listen names, checked: every interface
// (another pod scrapes it), not the webhook's port.
func metricsPort(t *testing.T, d *appsv1.Deployment, c *corev1.Container) int32 {
	t.Helper()
	where := "Deployment " + d.Name + ": container " + c.Name
	addr, ok := flagValue(c.Args, metricsFlag)
	if !ok {
		t.Errorf("%s: args have no -%s: /metrics would be served on the webhook's port, which the Service and the Ingress expose", where, metricsFlag)
		return 0
	}
	host, p, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(p)
	if err != nil || perr != nil || n <= 0 || n > 65535 {
		t.Errorf("%s: -%s %q is not HOST:PORT", where, metricsFlag, addr)
		return 0
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		t.Errorf("%s: -%s %q listens on loopback, which Prometheus in another pod cannot reach: use :%d", where, metricsFlag, addr, n)
	}
	if n == webhookPort {
		t.Errorf("%s: -%s %q is the webhook's port: /metrics must have a port of its own", where, metricsFlag, addr)
	}
	if got := portNamed(c, "metrics"); got != int32(n) {
		t.Errorf("%s: the container port named metrics is %d, want -%s's %d (PodMonitor and NetworkPolicy name it)", where, got, metricsFlag, n)
	}
	return int32(n)
}

func checkDeployment(t *testing.T, d *appsv1.Deployment, objs []object) {
	where := "Deployment " + d.Name
	spec := &d.Spec.Template.Spec
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 {
		t.Errorf("%s: replicas must be 1", where)
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Errorf("%s: automountServiceAccountToken must be false: the relay calls no Kubernetes API", where)
	}
	if g := spec.TerminationGracePeriodSeconds; g == nil || *g < minGrace {
		t.Errorf("%s: terminationGracePeriodSeconds must be at least %d (the guide's stop grace period; Kubernetes' default is 30)", where, minGrace)
	}

	psc := spec.SecurityContext
	if psc == nil {
		t.Fatalf("%s: the pod has no securityContext", where)
	}
	if psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Errorf("%s: pod securityContext.runAsNonRoot must be true", where)
	}
	for _, id := range []struct {
		field string
		v     *int64
	}{{"runAsUser", psc.RunAsUser}, {"runAsGroup", psc.RunAsGroup}, {"fsGroup", psc.FSGroup}} {
		if id.v == nil || *id.v != relayUser {
			t.Errorf("%s: pod securityContext.%s must be %d (the image's user; fsGroup lets it write the volume)", where, id.field, relayUser)
		}
	}
	if psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s: pod securityContext.seccompProfile.type must be RuntimeDefault", where)
	}

	c := relayContainer(t, d)
	cw := where + ": container " + c.Name
	if c.Image == relayImage || !strings.Contains(c.Image, "/") {
		t.Errorf("%s: image %q was not replaced by kustomization.yaml's images entry", cw, c.Image)
	}
	csc := c.SecurityContext
	if csc == nil {
		t.Fatalf("%s: has no securityContext", cw)
	}
	if csc.ReadOnlyRootFilesystem == nil || !*csc.ReadOnlyRootFilesystem {
		t.Errorf("%s: securityContext.readOnlyRootFilesystem must be true", cw)
	}
	if csc.AllowPrivilegeEscalation == nil || *csc.AllowPrivilegeEscalation {
		t.Errorf("%s: securityContext.allowPrivilegeEscalation must be false", cw)
	}
	if csc.Privileged != nil && *csc.Privileged {
		t.Errorf("%s: securityContext.privileged must not be true", cw)
	}
	if csc.Capabilities == nil || !slices.Contains(csc.Capabilities.Drop, "ALL") {
		t.Errorf("%s: securityContext.capabilities.drop must hold ALL", cw)
	} else if len(csc.Capabilities.Add) > 0 {
		t.Errorf("%s: securityContext.capabilities.add must be empty, has %v", cw, csc.Capabilities.Add)
	}
	if (csc.RunAsNonRoot != nil && !*csc.RunAsNonRoot) || (csc.RunAsUser != nil && *csc.RunAsUser != relayUser) {
		t.Errorf("%s: securityContext overrides the pod's user: runAsNonRoot and runAsUser %d hold for the relay too", cw, relayUser)
	}

	// The ports: the webhook's (the image's PORT), and /metrics on its own.
	if got := portNamed(c, "http"); got != webhookPort {
		t.Errorf("%s: the container port named http is %d, want %d (the image's PORT; the Service targets it by name)", cw, got, webhookPort)
	}
	for _, e := range c.Env {
		if e.Name == "PORT" && e.Value != strconv.Itoa(webhookPort) {
			t.Errorf("%s: env PORT %q moves the webhook off %d, where the ports and probes expect it", cw, e.Value, webhookPort)
		}
	}
	mp := metricsPort(t, d, c)
	if a := d.Spec.Template.Annotations; a["prometheus.io/scrape"] == "true" && a["prometheus.io/port"] != strconv.Itoa(int(mp)) {
		t.Errorf("%s: annotation prometheus.io/port is %q, want the metrics port %d", where, a["prometheus.io/port"], mp)
	}

	// The probes: httpGet /healthz on the webhook's port.
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
	}{{"livenessProbe", c.LivenessProbe}, {"readinessProbe", c.ReadinessProbe}} {
		switch {
		case p.probe == nil:
			t.Errorf("%s: has no %s", cw, p.name)
		case p.probe.HTTPGet == nil:
			t.Errorf("%s: %s is not an httpGet (the image has no shell to exec a probe)", cw, p.name)
		case p.probe.HTTPGet.Path != healthPath:
			t.Errorf("%s: %s.httpGet.path is %q, want %s", cw, p.name, p.probe.HTTPGet.Path, healthPath)
		case containerPort(c, p.probe.HTTPGet.Port) != webhookPort:
			t.Errorf("%s: %s.httpGet.port %s is not the webhook's port %d: the probe must see what Join It reaches", cw, p.name, p.probe.HTTPGet.Port.String(), webhookPort)
		}
	}

	// The backend and the secrets: from a Secret, never a value here.
	named := 0
	for flagName, token := range backends {
		if _, ok := flagValue(c.Args, flagName); ok {
			named++
			if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == token }) {
				t.Errorf("%s: -%s needs %s in env, from the Secret", cw, flagName, token)
			}
		}
	}
	if named != 1 {
		t.Errorf("%s: args name %d backends, want exactly one of -tfe-workspace and -github-workflow", cw, named)
	}
	if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == secretEnv }) {
		t.Errorf("%s: env has no %s", cw, secretEnv)
	}
	for _, e := range c.Env {
		if e.Name == secretEnv || strings.HasSuffix(e.Name, "TOKEN") {
			if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
				t.Errorf("%s: env %s must come from a Secret (valueFrom.secretKeyRef), never a value in the manifest", cw, e.Name)
			}
		}
	}
	if len(c.EnvFrom) > 0 {
		t.Errorf("%s: envFrom gives the relay every key of a source: name each variable with a secretKeyRef", cw)
	}

	// Resources: sized from the relay's measured peak.
	minLimit := resource.MustParse(minMemLimit)
	req, lim := c.Resources.Requests.Memory(), c.Resources.Limits.Memory()
	switch {
	case req.IsZero():
		t.Errorf("%s: resources.requests.memory is not set", cw)
	case lim.IsZero():
		t.Errorf("%s: resources.limits.memory is not set", cw)
	case lim.Cmp(minLimit) < 0:
		t.Errorf("%s: resources.limits.memory %s is below %s (the relay's accept benchmark bounds its peak RSS at 30 MB)", cw, lim, minMemLimit)
	case req.Cmp(*lim) > 0:
		t.Errorf("%s: resources.requests.memory %s is above its limit %s", cw, req, lim)
	}

	// The volume: a PersistentVolumeClaim of the build, at /data.
	checkVolume(t, d, c, objs)
}

func checkVolume(t *testing.T, d *appsv1.Deployment, c *corev1.Container, objs []object) {
	where := "Deployment " + d.Name
	i := slices.IndexFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == dataMount })
	if i < 0 {
		t.Errorf("%s: container %s mounts nothing at %s: an owed run would be lost with the container", where, c.Name, dataMount)
		return
	}
	m := c.VolumeMounts[i]
	if m.ReadOnly {
		t.Errorf("%s: container %s mounts %s read-only", where, c.Name, dataMount)
	}
	vi := slices.IndexFunc(d.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
	if vi < 0 || d.Spec.Template.Spec.Volumes[vi].PersistentVolumeClaim == nil {
		t.Errorf("%s: volume %s at %s is not a persistentVolumeClaim: an owed run would be lost with the pod", where, m.Name, dataMount)
		return
	}
	claim := d.Spec.Template.Spec.Volumes[vi].PersistentVolumeClaim.ClaimName
	var pvc *corev1.PersistentVolumeClaim
	for _, o := range objs {
		if p, ok := o.obj.(*corev1.PersistentVolumeClaim); ok && p.Name == claim {
			pvc = p
		}
	}
	if pvc == nil {
		t.Errorf("%s: claim %s is not in the build", where, claim)
		return
	}
	if pvc.Spec.Resources.Requests.Storage().IsZero() {
		t.Errorf("PersistentVolumeClaim %s: requests no storage", pvc.Name)
	}
	// A rolling update that starts the new pod first, on a volume only one
	// node attaches, hangs when the new pod lands on another node.
	rwoOnly := len(pvc.Spec.AccessModes) > 0 && !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany)
	if ru := d.Spec.Strategy.RollingUpdate; rwoOnly && d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType && (ru == nil || ru.MaxSurge == nil || ru.MaxSurge.String() != "0") {
		t.Errorf("%s: a RollingUpdate with surge on the %v volume %s: its new pod, on another node, waits for the volume the old pod holds, and the rollout hangs; use Recreate (see the strategy's comment)", where, pvc.Spec.AccessModes, pvc.Name)
	}
}

// checkPodSecurity evaluates the pod against the level the namespace
// enforces (restricted), with Pod Security Admission's own checks.
func checkPodSecurity(t *testing.T, d *appsv1.Deployment, ns *corev1.Namespace) {
	levelName := ns.Labels[psaapi.EnforceLevelLabel]
	if levelName != string(psaapi.LevelRestricted) {
		t.Errorf("Namespace %s: label %s is %q, want restricted (the relay's pod meets it)", ns.Name, psaapi.EnforceLevelLabel, levelName)
		levelName = string(psaapi.LevelRestricted)
	}
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lv := psaapi.LevelVersion{Level: psaapi.Level(levelName), Version: psaapi.LatestVersion()}
	for _, r := range evaluator.EvaluatePod(lv, &d.Spec.Template.ObjectMeta, &d.Spec.Template.Spec) {
		if !r.Allowed {
			t.Errorf("Deployment %s: the pod breaks Pod Security's %s profile: %s: %s", d.Name, levelName, r.ForbiddenReason, r.ForbiddenDetail)
		}
	}
}

func checkService(t *testing.T, svc *corev1.Service, d *appsv1.Deployment) {
	where := "Service " + svc.Name
	c := relayContainer(t, d)
	if !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels)) || len(svc.Spec.Selector) == 0 {
		t.Errorf("%s: selector %v does not select the relay's pod (labels %v)", where, svc.Spec.Selector, d.Spec.Template.Labels)
	}
	if len(svc.Spec.Ports) == 0 {
		t.Errorf("%s: has no port", where)
	}
	for _, p := range svc.Spec.Ports {
		target := p.TargetPort
		if target.Type == intstr.Int && target.IntVal == 0 {
			target = intstr.FromInt32(p.Port)
		}
		if got := containerPort(c, target); got != webhookPort {
			t.Errorf("%s: port %s (%d) targets %s, not the webhook's port %d: the Service exposes the webhook alone, never /metrics", where, p.Name, p.Port, target.String(), webhookPort)
		}
	}
	if svc.Spec.Type != "" && svc.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("%s: type %s: reach the relay from outside through the Ingress, which routes /hooks/ alone", where, svc.Spec.Type)
	}
}

// checkOptionalFiles checks the files kustomization.yaml does not apply
// against the Deployment it builds: the Secret template, the
// NetworkPolicy, the PodMonitor and the Ingress.
func checkOptionalFiles(t *testing.T, files, built []object) {
	d, _ := only[*appsv1.Deployment](t, built, "Deployment")
	c := relayContainer(t, d)
	svc, _ := only[*corev1.Service](t, built, "Service")
	podLabels := labels.Set(d.Spec.Template.Labels)

	s, so := only[*corev1.Secret](t, files, "Secret template")
	for k, v := range s.Data {
		if len(v) > 0 {
			t.Errorf("%s: data.%s holds a value: the template holds none", so, k)
		}
	}
	for k, v := range s.StringData {
		if v != "" {
			t.Errorf("%s: stringData.%s holds a value: the template holds none", so, k)
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			continue
		}
		ref := e.ValueFrom.SecretKeyRef
		_, inData := s.Data[ref.Key]
		_, inString := s.StringData[ref.Key]
		if ref.Name != s.Name || !(inData || inString) {
			t.Errorf("%s: env %s reads Secret %s key %s, which the template (Secret %s) does not show", "Deployment "+d.Name, e.Name, ref.Name, ref.Key, s.Name)
		}
	}

	mp := portNamed(c, "metrics") // checked against -metrics-listen by checkDeployment
	for _, o := range files {
		switch obj := o.obj.(type) {
		case *networkingv1.NetworkPolicy:
			checkNetworkPolicy(t, o, obj, c, podLabels, mp)
		case *monitoringv1.PodMonitor:
			sel, err := metav1LabelSelector(obj.Spec.Selector)
			if err != nil || !sel.Matches(podLabels) {
				t.Errorf("%s: selector does not select the relay's pod (labels %v)", o, podLabels)
			}
			if len(obj.Spec.PodMetricsEndpoints) == 0 {
				t.Errorf("%s: has no podMetricsEndpoints", o)
			}
			for _, ep := range obj.Spec.PodMetricsEndpoints {
				if ep.Port == nil || portNamed(c, *ep.Port) != mp {
					t.Errorf("%s: endpoint port %v is not the container's metrics port (named metrics, %d)", o, ptrString(ep.Port), mp)
				}
				if ep.Path != "" && ep.Path != "/metrics" {
					t.Errorf("%s: endpoint path %q, want /metrics", o, ep.Path)
				}
			}
		case *networkingv1.Ingress:
			checkIngress(t, o, obj, svc)
		}
	}
}

func metav1LabelSelector(s metav1.LabelSelector) (labels.Selector, error) {
	return metav1.LabelSelectorAsSelector(&s)
}

func ptrString(p *string) string {
	if p == nil {
		return "(none)"
	}
	return *p
}

func checkNetworkPolicy(t *testing.T, o object, np *networkingv1.NetworkPolicy, c *corev1.Container, podLabels labels.Set, metricsPort int32) {
	sel, err := metav1LabelSelector(np.Spec.PodSelector)
	if err != nil || !sel.Matches(podLabels) || sel.Empty() {
		t.Errorf("%s: podSelector does not select the relay's pod alone (labels %v)", o, podLabels)
	}
	var ingressPorts []int32
	for _, rule := range np.Spec.Ingress {
		if len(rule.Ports) == 0 {
			t.Errorf("%s: an ingress rule names no port: it opens every port of the pod", o)
		}
		for _, p := range rule.Ports {
			if p.Port == nil {
				t.Errorf("%s: an ingress port names no port: it opens every port", o)
				continue
			}
			n := containerPort(c, *p.Port)
			if n != webhookPort && n != metricsPort {
				t.Errorf("%s: ingress port %s is neither the webhook's (%d) nor the metrics port (%d)", o, p.Port.String(), webhookPort, metricsPort)
			}
			ingressPorts = append(ingressPorts, n)
		}
	}
	for _, want := range []int32{webhookPort, metricsPort} {
		if !slices.Contains(ingressPorts, want) {
			t.Errorf("%s: no ingress rule lets port %d in", o, want)
		}
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) {
		t.Errorf("%s: policyTypes lacks Egress: the relay could reach anything", o)
	}
	var egressPorts []string
	for _, rule := range np.Spec.Egress {
		for _, p := range rule.Ports {
			if p.Port != nil {
				egressPorts = append(egressPorts, p.Port.String())
			}
		}
		if len(rule.Ports) == 0 {
			t.Errorf("%s: an egress rule names no port: it lets the relay reach every port", o)
		}
	}
	for _, want := range []string{"443", "53"} {
		if !slices.Contains(egressPorts, want) {
			t.Errorf("%s: egress does not allow port %s (DNS, and HTTPS to GitHub or HCP Terraform)", o, want)
		}
	}
}

func checkIngress(t *testing.T, o object, ing *networkingv1.Ingress, svc *corev1.Service) {
	if ing.Spec.DefaultBackend != nil {
		t.Errorf("%s: has a defaultBackend: every path would reach the relay, not /hooks/ alone", o)
	}
	paths := 0
	for _, rule := range ing.Spec.Rules {
		if rule.HTTP == nil {
			continue
		}
		for _, p := range rule.HTTP.Paths {
			paths++
			if !strings.HasPrefix(p.Path, "/hooks/") || p.PathType == nil || *p.PathType != networkingv1.PathTypePrefix {
				t.Errorf("%s: path %q (%v) routes more than /hooks/: /metrics and /healthz stay inside the cluster", o, p.Path, p.PathType)
			}
			b := p.Backend.Service
			if b == nil || b.Name != svc.Name || !slices.ContainsFunc(svc.Spec.Ports, func(sp corev1.ServicePort) bool {
				return sp.Name == b.Port.Name || (b.Port.Number != 0 && sp.Port == b.Port.Number)
			}) {
				t.Errorf("%s: path %q has a backend other than Service %s's port", o, p.Path, svc.Name)
			}
		}
	}
	if paths == 0 {
		t.Errorf("%s: routes no path", o)
	}
}

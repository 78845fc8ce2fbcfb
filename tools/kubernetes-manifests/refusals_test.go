package manifests

import (
	"encoding/json"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// refusal is one edit of the example that a type-strict decoder accepts and
// kube-apiserver refuses (or warns about), and what the server says.
type refusal struct {
	name string
	kind string // the edited object's kind; the example holds one of each
	edit func(t *testing.T, obj runtime.Object)
	want string // in what asAPIServerSays returns
}

// relayOf is the relay's container in an edited Deployment.
func relayOf(t *testing.T, obj runtime.Object) *corev1.Container {
	return relayContainer(t, obj.(*appsv1.Deployment))
}

var refusals = []refusal{
	// Issue 69's three, as a real kube-apiserver v1.37.2 answered them.
	{"a port name over 15 characters", "Deployment", func(t *testing.T, obj runtime.Object) {
		relayOf(t, obj).Ports[0].Name = "debug-metrics-16"
	}, "must be no more than 15 characters"},
	{"a CPU limit below its request", "Deployment", func(t *testing.T, obj runtime.Object) {
		c := relayOf(t, obj)
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")}
		c.Resources.Limits[corev1.ResourceCPU] = resource.MustParse("100m")
	}, "must be less than or equal to cpu limit"},
	{"a liveness probe with two handlers", "Deployment", func(t *testing.T, obj runtime.Object) {
		relayOf(t, obj).LivenessProbe.Exec = &corev1.ExecAction{Command: []string{"true"}}
	}, "may not specify more than 1 handler type"},
	// Others of the kind an edit makes.
	{"a selector the pod's labels do not match", "Deployment", func(t *testing.T, obj runtime.Object) {
		obj.(*appsv1.Deployment).Spec.Template.Labels = map[string]string{"app": "other"}
	}, "`selector` does not match template `labels`"},
	{"a mount of a volume not declared", "Deployment", func(t *testing.T, obj runtime.Object) {
		relayOf(t, obj).VolumeMounts[0].Name = "state"
	}, "spec.template.spec.containers[0].volumeMounts[0].name: Not found"},
	{"a fractional memory limit (a warning)", "Deployment", func(t *testing.T, obj runtime.Object) {
		relayOf(t, obj).Resources.Limits[corev1.ResourceMemory] = resource.MustParse("100000000500m") // 100 MB and half a byte
	}, "Warning: spec.template.spec.containers[0].resources.limits[memory]: fractional byte value"},
	{"a Service's target port named over 15 characters", "Service", func(t *testing.T, obj runtime.Object) {
		obj.(*corev1.Service).Spec.Ports[0].TargetPort = intstr.FromString("webhook-listener")
	}, "must be no more than 15 characters"},
	{"a namespace label value with a space", "Namespace", func(t *testing.T, obj runtime.Object) {
		obj.(*corev1.Namespace).Labels["app.kubernetes.io/name"] = "joinit relay"
	}, "a valid label must be an empty string or consist of alphanumeric characters"},
	{"a claim asking for no storage", "PersistentVolumeClaim", func(t *testing.T, obj runtime.Object) {
		delete(obj.(*corev1.PersistentVolumeClaim).Spec.Resources.Requests, corev1.ResourceStorage)
	}, "spec.resources[storage]: Required value"},
	{"an Ingress path type misspelt", "Ingress", func(t *testing.T, obj runtime.Object) {
		pt := networkingv1.PathType("Prefixx")
		obj.(*networkingv1.Ingress).Spec.Rules[0].HTTP.Paths[0].PathType = &pt
	}, `pathType: Unsupported value: "Prefixx"`},
	// The CRDs' schemas: a value each one's types accept and its schema does not.
	{"a PodMonitor scheme outside the CRD's enum", "PodMonitor", func(t *testing.T, obj runtime.Object) {
		scheme := monitoringv1.Scheme("htp")
		obj.(*monitoringv1.PodMonitor).Spec.PodMetricsEndpoints[0].Scheme = &scheme
	}, `spec.podMetricsEndpoints[0].scheme: Unsupported value: "htp"`},
	{"a PrometheusRule's for that is no duration", "PrometheusRule", func(t *testing.T, obj runtime.Object) {
		d := monitoringv1.Duration("5 minutes")
		obj.(*monitoringv1.PrometheusRule).Spec.Groups[0].Rules[0].For = &d
	}, "spec.groups[0].rules[0].for: Invalid value: \"5 minutes\""},
}

// TestAPIServerValidationRefuses shows the check refusing what the API
// server refuses: each edit, made on a copy of the example's own object,
// is one a strict decoder accepts; the edited object is refused (or
// warned about), saying where, and the unedited one, given the same way,
// passes.
func TestAPIServerValidationRefuses(t *testing.T) {
	k := kustomization(t)
	objs := append(build(t), fileObjects(t)...)
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			o := ofKind(t, objs, r.kind)
			if says := asAPIServerSays(given(t, o, o.obj), k.Namespace); says != "" {
				t.Fatalf("unedited, it is refused: %s", says)
			}
			edited := o.obj.DeepCopyObject()
			r.edit(t, edited)
			says := asAPIServerSays(given(t, o, edited), k.Namespace)
			if !strings.Contains(says, r.want) {
				t.Errorf("edited, want %q in what the server says; it says: %q", r.want, says)
			}
		})
	}
}

// ofKind is the first object of a kind among objs.
func ofKind(t *testing.T, objs []object, kind string) object {
	t.Helper()
	for _, o := range objs {
		if o.obj.GetObjectKind().GroupVersionKind().Kind == kind {
			return o
		}
	}
	t.Fatalf("the example holds no %s", kind)
	return object{}
}

// given is obj as a request would give it: its JSON is the document a
// custom resource is decoded from.
func given(t *testing.T, o object, obj runtime.Object) object {
	t.Helper()
	doc, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return object{o.where + " (as a request gives it)", obj, doc}
}

// Package manifests checks examples/relay-kubernetes (make k8s-check, which
// CI runs) with the field's own libraries: kustomize's krusty builds the
// directory as `kubectl apply -k` would, every object built and every YAML
// file beside it (the optional ones too) is decoded strictly into its Go
// type by apiVersion and kind (k8s.io/api; the Prometheus Operator's for a
// PodMonitor and a PrometheusRule), then validated as kube-apiserver
// validates a create, with its own code (apiserver_test.go, crd_test.go;
// refusals_test.go shows it refusing what the server refuses),
// kustomization.yaml is decoded into kustomize's own type, each optional
// entry is built uncommented as an operator would
// (optional_test.go), the PrometheusRule is held to the alerts' one source,
// examples/relay-alerts/joinit-relay.rules.yml (alerts_test.go), and the
// properties issue 63 asks of the relay's pod are asserted on the decoded
// structs, with Pod Security Admission's restricted profile evaluated by
// its own code. It is a module of its own, like tools/openstack-provider,
// so that Kubernetes' libraries never meet the provider's.
package manifests

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/api/types"
)

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
	t.Run("as the API server validates", func(t *testing.T) {
		for _, o := range append(built, files...) {
			if says := asAPIServerSays(o, k.Namespace); says != "" {
				t.Error(says)
			}
		}
	})
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

package manifests

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install" // apps/v1's defaults and conversions, into legacyscheme
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
)

// serverKind is how kube-apiserver serves a kind: its resource and its
// create strategy.
type serverKind struct {
	resource string
	strategy rest.RESTCreateStrategy
}

// builtinKinds are kube-apiserver's own create strategies
// (k8s.io/kubernetes/pkg/registry) for the built-in kinds the example holds.
// A kind missing here, and from the CRDs (crd_test.go), is an error, not a
// pass.
var builtinKinds = map[schema.GroupKind]serverKind{
	{Group: "", Kind: "Namespace"}:                      {"namespaces", namespace.Strategy},
	{Group: "", Kind: "PersistentVolumeClaim"}:          {"persistentvolumeclaims", persistentvolumeclaim.Strategy},
	{Group: "", Kind: "Secret"}:                         {"secrets", secret.Strategy},
	{Group: "", Kind: "Service"}:                        {"services", service.Strategy},
	{Group: "apps", Kind: "Deployment"}:                 {"deployments", deployment.Strategy},
	{Group: "networking.k8s.io", Kind: "Ingress"}:       {"ingresses", ingress.Strategy},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}: {"networkpolicies", networkpolicy.Strategy},
}

// warnings collects what the server would send back as Warning headers.
type warnings []string

func (w *warnings) AddWarning(_, text string) { *w = append(*w, text) }

// validateAsAPIServer runs on o what kube-apiserver runs between decoding a
// create (or a server-side dry run of one) and writing it to etcd, in its
// order: defaults, conversion to the internal version (built-in kinds), or
// the CRD's pruning, defaulting and metadata coercion (custom resources),
// then rest.BeforeCreate with the kind's own strategy: PrepareForCreate,
// the strategy's validation, the common metadata validation, declarative
// validation and the strategy's warnings. Strict field validation is the
// strict decoding every object already went through (decode_test.go) and,
// for a custom resource, the fields its schema prunes. Admission plugins are
// not run; Pod Security's is checked by checkPodSecurity.
//
// defaultNamespace is the request's namespace for an object that names none
// (an optional file, applied with kubectl -n).
func validateAsAPIServer(o object, defaultNamespace string) (warnings, error) {
	gvk := o.obj.GetObjectKind().GroupVersionKind()
	obj, kind, err := serverObject(o, gvk)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o, err)
	}
	strategy := kind.strategy
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o, err)
	}
	ns := ""
	if strategy.NamespaceScoped() {
		ns = m.GetNamespace()
		if ns == "" {
			ns = defaultNamespace
			m.SetNamespace(ns)
		}
	}
	var w warnings
	ctx := warning.WithWarningRecorder(context.Background(), &w)
	ctx = genericapirequest.WithNamespace(ctx, ns)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: gvk.Group, APIVersion: gvk.Version,
		Namespace: ns, Resource: kind.resource, Name: m.GetName(),
	})
	rest.FillObjectMetaSystemFields(m)
	if err := rest.BeforeCreate(strategy, ctx, obj); err != nil {
		return w, fmt.Errorf("%s: %w", o, err)
	}
	return w, nil
}

// serverObject is o as the server holds it when it validates, with how the
// server serves its kind: a custom resource decoded as its CRD makes the
// server decode it (crd_test.go), a built-in kind defaulted and converted to
// its internal type (a copy: o is shared by the other checks).
func serverObject(o object, gvk schema.GroupVersionKind) (runtime.Object, serverKind, error) {
	crs, err := customResources()
	if err != nil {
		return nil, serverKind{}, err
	}
	if cr, ok := crs[gvk]; ok {
		u, err := cr.decode(o.doc)
		return u, cr.serverKind, err
	}
	kind, ok := builtinKinds[gvk.GroupKind()]
	if !ok {
		return nil, serverKind{}, fmt.Errorf("neither a kube-apiserver strategy (apiserver_test.go) nor a CRD (crd_test.go) is wired here for %s", gvk)
	}
	external := o.obj.DeepCopyObject()
	legacyscheme.Scheme.Default(external)
	internal, err := legacyscheme.Scheme.ConvertToVersion(external, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	return internal, kind, err
}

// asAPIServerSays is validateAsAPIServer's verdict in one line: the error,
// or each warning (which kubectl prints and this check refuses: a value the
// server only warns about is one it may refuse in a later release, or one
// it changes behind the operator's back).
func asAPIServerSays(o object, defaultNamespace string) string {
	w, err := validateAsAPIServer(o, defaultNamespace)
	var says []string
	if err != nil {
		says = append(says, err.Error())
	}
	for _, text := range w {
		says = append(says, fmt.Sprintf("%s: Warning: %s", o, text))
	}
	return strings.Join(says, "\n")
}

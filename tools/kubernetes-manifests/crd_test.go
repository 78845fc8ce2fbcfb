package manifests

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/yaml"

	// The CRDs are read from this module's example/ (it holds no Go package
	// this check needs): importing its smallest package keeps it, at the
	// version go.mod pins, in the build list go list reads.
	_ "github.com/prometheus-operator/prometheus-operator/pkg/versionutil"
)

// The Prometheus Operator's CRDs, as its release ships them. The module is
// pinned at the newest release whose module the Go module proxy serves
// (v0.94.1; v0.95.x is refused), and its API types (pkg/apis/monitoring,
// which the strict decoder uses) at the same version, so the types and the
// schemas agree.
const (
	crdModule = "github.com/prometheus-operator/prometheus-operator"
	crdDir    = "example/prometheus-operator-crd"
)

var crdFiles = []string{"monitoring.coreos.com_podmonitors.yaml", "monitoring.coreos.com_prometheusrules.yaml"}

// customResource is one served version of a CRD, held as kube-apiserver's
// apiextensions handler holds it (customresource_handler.go, serving info):
// its structural schema, and its create strategy built from it.
type customResource struct {
	serverKind
	structural *structuralschema.Structural
}

// customResources are the CRDs' served versions by kind, loaded once.
var customResources = sync.OnceValues(func() (map[schema.GroupVersionKind]customResource, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", crdModule).Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m %s: %w", crdModule, err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), crdDir)
	crs := map[schema.GroupVersionKind]customResource{}
	for _, name := range crdFiles {
		if err := loadCRD(filepath.Join(dir, name), crs); err != nil {
			return nil, fmt.Errorf("%s@%s: %w", crdModule, name, err)
		}
	}
	return crs, nil
})

// crdDecoder decodes a CRD strictly and defaults it, as the server does when
// the CRD is created.
var crdScheme, crdDecoder = func() (*runtime.Scheme, runtime.Decoder) {
	s := runtime.NewScheme()
	apiextensionsinstall.Install(s)
	return s, serializer.NewCodecFactory(s, serializer.EnableStrict).UniversalDecoder(apiextensionsv1.SchemeGroupVersion)
}()

// loadCRD adds each served version of the CRD in file to crs.
func loadCRD(file string, crs map[schema.GroupVersionKind]customResource) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if _, _, err := crdDecoder.Decode(data, nil, &crd); err != nil {
		return err
	}
	crdScheme.Default(&crd)
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
		cr, err := servedVersion(&crd, v, gvk)
		if err != nil {
			return fmt.Errorf("%s: %w", gvk, err)
		}
		crs[gvk] = cr
	}
	return nil
}

// servedVersion builds one version's schema and strategy in the handler's
// steps: the version's schema converted to the internal type, made
// structural with defaults pruned, a schema validator, and
// customresource.NewStrategy (which compiles the schema's CEL rules).
func servedVersion(crd *apiextensionsv1.CustomResourceDefinition, v apiextensionsv1.CustomResourceDefinitionVersion, gvk schema.GroupVersionKind) (customResource, error) {
	val, err := apihelpers.GetSchemaForVersion(crd, v.Name)
	if err != nil {
		return customResource{}, err
	}
	if val == nil {
		return customResource{}, errors.New("no schema: nothing but decoding would check it")
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return customResource{}, err
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return customResource{}, err
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return customResource{}, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return customResource{}, err
	}
	var status *apiextensionsinternal.CustomResourceSubresourceStatus
	if v.Subresources != nil && v.Subresources.Status != nil {
		status = &apiextensionsinternal.CustomResourceSubresourceStatus{}
	}
	strategy := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		gvk, validator, nil, s, status, nil, v.SelectableFields)
	return customResource{serverKind{crd.Spec.Names.Plural, strategy}, s}, nil
}

// decode is the server's decoding of a custom resource under strict field
// validation (customresource_handler.go's schemaCoercingDecoder and
// unstructuredDefaulter): the fields the schema prunes, and metadata's
// unknown or malformed fields, are errors, each named; then the schema's
// defaults are applied.
func (cr customResource) decode(doc []byte) (*unstructured.Unstructured, error) {
	j, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		return nil, err
	}
	_, _, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, cr.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, cr.structural)
	metaErr, coerced := schemaobjectmeta.CoerceWithOptions(nil, u.Object, cr.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if metaErr != nil { // a *field.Error: kept apart from err, whose nil it is not
		return nil, metaErr
	}
	unknown = append(unknown, coerced...)
	if len(unknown) > 0 {
		errs := make([]error, len(unknown))
		for i, path := range unknown {
			errs[i] = fmt.Errorf("unknown field %q", path)
		}
		return nil, runtime.NewStrictDecodingError(errs)
	}
	structuraldefaulting.Default(u.Object, cr.structural)
	return u, nil
}

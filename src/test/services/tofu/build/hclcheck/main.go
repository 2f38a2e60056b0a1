// hclcheck parses every .tf file of each directory given (one Terraform module each) with the HCL parser and
// checks, without provider plugins, that every var.X, local.X, module.X and data/resource reference names
// something the module declares. `tofu validate` would also check provider schemas; it needs the plugins, which
// cannot be downloaded here. Prints one line per problem and exits 1 if there is any.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

type module struct {
	variables, locals, modules, resources, data, outputs map[string]hcl.Range
	refs                                                 []hcl.Traversal
	required                                             map[string]bool // variables without a default
	calls                                                map[string]*hclsyntax.Block
}

// metaArguments of a module block, which are not input variables of the called module.
var metaArguments = map[string]bool{"source": true, "version": true, "count": true, "for_each": true,
	"providers": true, "depends_on": true}

func main() {
	problems := 0
	for _, dir := range os.Args[1:] {
		problems += check(dir)
	}
	if problems > 0 {
		os.Exit(1)
	}
}

func check(dir string) int {
	m, problems := load(dir)
	if m == nil {
		return problems
	}
	for _, t := range m.refs {
		if msg := resolve(m, t); msg != "" {
			fmt.Printf("%s: %s\n", t.SourceRange(), msg)
			problems++
		}
	}
	problems += checkCalls(dir, m)
	names := func(set map[string]hcl.Range) []string {
		out := make([]string, 0, len(set))
		for n := range set {
			out = append(out, n)
		}
		sort.Strings(out)
		return out
	}
	fmt.Printf("%s: variables %v, outputs %v, resources %v, data %v, modules %v, %d references: %d problems\n",
		dir, names(m.variables), names(m.outputs), names(m.resources), names(m.data), names(m.modules),
		len(m.refs), problems)
	return problems
}

// checkCalls checks each call of a local module (source "./..." or "../..."): every argument is a variable the
// called module declares, every variable it requires is set, and every module.<name>.<output> reference names one
// of its outputs.
func checkCalls(dir string, m *module) int {
	problems := 0
	for name, block := range m.calls {
		srcAttr, ok := block.Body.Attributes["source"]
		if !ok {
			fmt.Printf("%s: module %s has no source\n", block.DefRange(), name)
			problems++
			continue
		}
		src, diags := srcAttr.Expr.Value(nil)
		if diags.HasErrors() || !strings.HasPrefix(src.AsString(), ".") {
			continue // a registry or remote module: out of reach offline
		}
		called, p := load(filepath.Join(dir, src.AsString()))
		problems += p
		if called == nil {
			continue
		}
		for arg, attr := range block.Body.Attributes {
			if _, ok := called.variables[arg]; !ok && !metaArguments[arg] {
				fmt.Printf("%s: module %s has no variable %q\n", attr.SrcRange, name, arg)
				problems++
			}
		}
		for v := range called.required {
			if _, ok := block.Body.Attributes[v]; !ok {
				fmt.Printf("%s: module %s: required variable %q not set\n", block.DefRange(), name, v)
				problems++
			}
		}
		for _, t := range m.refs {
			if t.RootName() == "module" && attr(t, 1) == name {
				if _, ok := called.outputs[attr(t, 2)]; !ok {
					fmt.Printf("%s: module %s has no output %q\n", t.SourceRange(), name, attr(t, 2))
					problems++
				}
			}
		}
	}
	return problems
}

// load parses every .tf file of dir and collects its declarations and references.
func load(dir string) (*module, int) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	if len(files) == 0 {
		fmt.Printf("%s: no .tf files\n", dir)
		return nil, 1
	}
	parser := hclparse.NewParser()
	m := &module{map[string]hcl.Range{}, map[string]hcl.Range{}, map[string]hcl.Range{}, map[string]hcl.Range{},
		map[string]hcl.Range{}, map[string]hcl.Range{}, nil, map[string]bool{}, map[string]*hclsyntax.Block{}}
	problems := 0
	for _, f := range files {
		file, diags := parser.ParseHCLFile(f)
		if diags.HasErrors() {
			for _, d := range diags {
				fmt.Println(d.Error())
			}
			problems++
			continue
		}
		body := file.Body.(*hclsyntax.Body)
		for _, block := range body.Blocks {
			switch block.Type {
			case "variable":
				m.variables[block.Labels[0]] = block.DefRange()
				if _, ok := block.Body.Attributes["default"]; !ok {
					m.required[block.Labels[0]] = true
				}
			case "output":
				m.outputs[block.Labels[0]] = block.DefRange()
			case "module":
				m.modules[block.Labels[0]] = block.DefRange()
				m.calls[block.Labels[0]] = block
			case "resource":
				m.resources[block.Labels[0]+"."+block.Labels[1]] = block.DefRange()
			case "data":
				m.data[block.Labels[0]+"."+block.Labels[1]] = block.DefRange()
			case "locals":
				for name, attr := range block.Body.Attributes {
					m.locals[name] = attr.SrcRange
				}
			}
		}
		collect(body, &m.refs)
	}
	return m, problems
}

// collect gathers every traversal of every expression in the body, nested blocks included.
func collect(body *hclsyntax.Body, out *[]hcl.Traversal) {
	hclsyntax.VisitAll(body, func(node hclsyntax.Node) hcl.Diagnostics {
		if expr, ok := node.(hclsyntax.Expression); ok {
			if st, ok := expr.(*hclsyntax.ScopeTraversalExpr); ok {
				*out = append(*out, st.Traversal)
			}
		}
		return nil
	})
}

func attr(t hcl.Traversal, i int) string {
	if len(t) <= i {
		return ""
	}
	if a, ok := t[i].(hcl.TraverseAttr); ok {
		return a.Name
	}
	return ""
}

// resolve returns "" when the reference names something declared (or a built-in), else what is wrong.
func resolve(m *module, t hcl.Traversal) string {
	root := t.RootName()
	switch root {
	case "var":
		if _, ok := m.variables[attr(t, 1)]; !ok {
			return "undeclared variable var." + attr(t, 1)
		}
	case "local":
		if _, ok := m.locals[attr(t, 1)]; !ok {
			return "undeclared local local." + attr(t, 1)
		}
	case "module":
		if _, ok := m.modules[attr(t, 1)]; !ok {
			return "undeclared module module." + attr(t, 1)
		}
	case "data":
		if _, ok := m.data[attr(t, 1)+"."+attr(t, 2)]; !ok {
			return "undeclared data source data." + attr(t, 1) + "." + attr(t, 2)
		}
	case "path", "terraform", "count", "each", "self":
		// built-ins
	default:
		// A resource reference (aws_x.name), or an iterator/dynamic-block/for-expression symbol, which the
		// parser alone cannot tell apart from a typo: a known resource type prefix must name a declared one.
		if len(t) >= 2 && (len(root) > 4 && root[:4] == "aws_") {
			if _, ok := m.resources[root+"."+attr(t, 1)]; !ok {
				return "undeclared resource " + root + "." + attr(t, 1)
			}
		}
	}
	return ""
}

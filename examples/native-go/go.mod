module kasm-go

go 1.26.6

require (
	github.com/pulumi/pulumi/sdk/v3 v3.276.0
	pulumi-kasm.local/sdk/go v0.0.0
)

// The generated SDK (npm run sdk:generate, from the pulumi-kasm checkout or package): no module
// of that path is published.
replace pulumi-kasm.local/sdk/go => ../../build/sdk/go

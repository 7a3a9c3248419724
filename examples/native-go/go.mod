module kasm-go

go 1.25

require (
	github.com/pulumi/pulumi/sdk/v3 v3.248.0
	pulumi-kasm.local/sdk/go v0.0.0
)

// The generated SDK (npm run sdk:generate, from the pulumi-kasm checkout or package): no module
// of that path is published.
replace pulumi-kasm.local/sdk/go => ../../build/sdk/go

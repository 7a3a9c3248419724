// Users and a staging configuration on one Kasm installation, through an explicit provider and
// the native provider's generated Go SDK (the module pulumi-kasm.local/sdk/go, taken by the
// `replace` in go.mod from `npm run sdk:generate`'s build/sdk/go).
//
// Configuration: kasmBaseUrl, kasmApiKey, kasmApiKeySecret (secret), adaPassword (secret),
// zoneId, imageId; adaFirstName (default Ada).
package main

import (
	"pulumi-kasm.local/sdk/go/kasm"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		prod, err := kasm.NewProvider(ctx, "prod", &kasm.ProviderArgs{
			BaseUrl:      pulumi.String(conf.Require("kasmBaseUrl")),
			ApiKey:       pulumi.String(conf.Require("kasmApiKey")),
			ApiKeySecret: conf.RequireSecret("kasmApiKeySecret"),
		})
		if err != nil {
			return err
		}
		onProd := pulumi.Provider(prod)

		firstName := conf.Get("adaFirstName")
		if firstName == "" {
			firstName = "Ada"
		}
		ada, err := kasm.NewUser(ctx, "ada", &kasm.UserArgs{
			Username:  pulumi.String("ada"),
			Password:  conf.RequireSecret("adaPassword"),
			FirstName: pulumi.String(firstName),
		}, onProd)
		if err != nil {
			return err
		}

		chrome, err := kasm.NewStagingConfig(ctx, "chrome", &kasm.StagingConfigArgs{
			ZoneId:      pulumi.String(conf.Require("zoneId")),
			ImageId:     pulumi.String(conf.Require("imageId")),
			NumSessions: pulumi.Int(3),
			Expiration:  pulumi.Float64(2),
		}, onProd)
		if err != nil {
			return err
		}

		team, err := kasm.NewUserSet(ctx, "team", &kasm.UserSetArgs{
			Users: kasm.UserSetUsersArray{
				kasm.UserSetUsersArgs{Username: pulumi.String("lin"), FirstName: pulumi.String("Lin")},
				kasm.UserSetUsersArgs{Username: pulumi.String("mo"), FirstName: pulumi.String("Mo")},
			},
		}, onProd)
		if err != nil {
			return err
		}

		ctx.Export("adaUserId", ada.UserId)
		ctx.Export("stagingConfigId", chrome.StagingConfigId)
		ctx.Export("teamCount", team.Count)
		return nil
	})
}

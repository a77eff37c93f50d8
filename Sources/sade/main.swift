print("sade")

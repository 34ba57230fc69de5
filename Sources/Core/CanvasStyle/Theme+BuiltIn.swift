extension Theme {
    /// The default dark theme, built in so the dashboard always has one.
    public static let dark = Theme(name: "dark", styles: [
        .text: Style(foreground: .palette(252)),
        .muted: Style(foreground: .palette(244)),
        .accent: Style(foreground: .palette(75), attributes: .bold),
        .border: Style(foreground: .palette(240)),
        .borderFocused: Style(foreground: .palette(75), attributes: .bold),
        .borderArranging: Style(foreground: .palette(214), attributes: .bold),
        .title: Style(foreground: .palette(250)),
        .titleFocused: Style(foreground: .palette(16), background: .palette(75), attributes: .bold),
        .selection: Style(foreground: .palette(16), background: .palette(75)),
        .selectionUnfocused: Style(foreground: .palette(252), background: .palette(238)),
        .today: Style(foreground: .palette(214), attributes: [.bold, .underline]),
        .heading: Style(foreground: .palette(110), attributes: .bold),
        .statusBar: Style(foreground: .palette(250), background: .palette(236)),
        .statusMode: Style(foreground: .palette(16), background: .palette(75), attributes: .bold),
        .statusKey: Style(foreground: .palette(214), background: .palette(236), attributes: .bold),
        .statusMessage: Style(foreground: .palette(16), background: .palette(214)),
        .overlay: Style(foreground: .palette(252), background: .palette(235)),
        .overlayBorder: Style(foreground: .palette(75), background: .palette(235), attributes: .bold),
        .error: Style(foreground: .palette(203), attributes: .bold),
        .warning: Style(foreground: .palette(214)),
        .success: Style(foreground: .palette(114)),
    ])
}

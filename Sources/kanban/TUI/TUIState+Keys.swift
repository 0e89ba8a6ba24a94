import KanbanCore

extension TUIState {
    /// What `key` does: the state changes (selection, prompt, menu...), and a request comes back when the key needs
    /// more than the state (the store, the editor, the terminal).
    mutating func handle(_ key: Key) -> TUIRequest? {
        switch mode {
        case .help:
            mode = .normal
            return nil
        case .prompt(let prompt):
            return handlePrompt(key, prompt)
        case .confirmingDelete(let card):
            mode = .normal
            if key == .character("y") || key == .character("Y") { return .change(.delete(card)) }
            say("kept \"\(card.title)\"")
            return nil
        case .choosingLabel(let menu):
            return handleLabelMenu(key, menu)
        case .normal:
            return handleNormal(key)
        }
    }

    private mutating func handleNormal(_ key: Key) -> TUIRequest? {
        switch key {
        case .character("q"), .control("c"):
            return .quit
        case .control("z"):
            return .suspend
        case .control("l"):
            return .redraw
        case .character("?"):
            mode = .help
        case .character("b"), .character("B"):
            guard boardNames.count > 1 else {
                say("one board shown: 'kanban tui DIR...' shows the boards a directory holds, b and B switch between them")
                return nil
            }
            return .switchBoard(by: key == .character("b") ? 1 : -1)
        case .character("h"), .arrow(.left, isShifted: false):
            selectColumn(by: -1)
        case .character("l"), .arrow(.right, isShifted: false):
            selectColumn(by: 1)
        case .character("j"), .arrow(.down, isShifted: false):
            selectCard(by: 1)
        case .character("k"), .arrow(.up, isShifted: false):
            selectCard(by: -1)
        case .pageDown:
            selectCard(by: 10)
        case .pageUp:
            selectCard(by: -10)
        case .character("g"), .home:
            selectCard(at: 0)
        case .character("G"), .end:
            selectCard(at: Int.max)
        case .character("H"), .arrow(.left, isShifted: true):
            return moveToColumn(by: -1)
        case .character("L"), .arrow(.right, isShifted: true):
            return moveToColumn(by: 1)
        case .character("K"), .arrow(.up, isShifted: true):
            return moveWithinColumn(by: -1)
        case .character("J"), .arrow(.down, isShifted: true):
            return moveWithinColumn(by: 1)
        case .character("n"):
            guard selectedColumn != nil else { return nil }
            mode = .prompt(Prompt(purpose: .newCard, text: ""))
        case .character("e"), .enter:
            guard let card = requireSelectedCard() else { return nil }
            return .edit(card)
        case .character("t"):
            guard let card = requireSelectedCard() else { return nil }
            mode = .prompt(Prompt(purpose: .retitle(card), text: card.title))
        case .character("#"):
            guard let card = requireSelectedCard() else { return nil }
            guard !board.board.labels.isEmpty else {
                say("board.md declares no labels; add one with 'kanban label add'", isError: true)
                return nil
            }
            mode = .choosingLabel(LabelMenu(card: card))
        case .character("a"):
            guard let card = requireSelectedCard() else { return nil }
            return .change(.archive(card))
        case .character("d"):
            guard let card = requireSelectedCard() else { return nil }
            mode = .confirmingDelete(card)
        case .character("/"):
            mode = .prompt(Prompt(purpose: .filter, text: filter?.text ?? ""))
        case .character("u"):
            guard !undoStack.isEmpty else {
                say("nothing to undo")
                return nil
            }
            return .undo
        case .escape:
            if filter != nil { return clearFilter() }
        default:
            break
        }
        return nil
    }

    private mutating func handlePrompt(_ key: Key, _ prompt: Prompt) -> TUIRequest? {
        var prompt = prompt
        switch key {
        case .character(let character):
            prompt.text.append(character)
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
        case .control("u"):
            prompt.text = ""
        case .control("c"):
            mode = .normal
            return prompt.purpose == .filter ? clearFilter() : nil
        case .escape:
            mode = .normal
            if prompt.purpose == .filter { return clearFilter() }
            say("cancelled")
            return nil
        case .enter:
            mode = .normal
            return confirm(prompt)
        default:
            return nil
        }
        mode = .prompt(prompt)
        return prompt.purpose == .filter ? setFilter(prompt.text) : nil
    }

    private mutating func confirm(_ prompt: Prompt) -> TUIRequest? {
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        switch prompt.purpose {
        case .newCard:
            guard let column = selectedColumn else { return nil }
            guard !text.isEmpty else {
                say("no card added: a card needs a title")
                return nil
            }
            let placement = selectedCard.map { Placement.after($0.path) } ?? .top
            return .change(.create(title: text, column: board.columns[column].id, placement: placement))
        case .retitle(let card):
            guard !text.isEmpty, text != card.title else {
                say(text.isEmpty ? "title unchanged: a card needs a title" : "title unchanged")
                return nil
            }
            return .change(.retitle(card, title: text))
        case .filter:
            return text.isEmpty ? clearFilter() : nil
        }
    }

    private mutating func handleLabelMenu(_ key: Key, _ menu: LabelMenu) -> TUIRequest? {
        var menu = menu
        let labels = board.board.labels
        var chosen: Int?
        switch key {
        case .character("j"), .arrow(.down, _):
            menu.highlighted = min(menu.highlighted + 1, labels.count - 1)
        case .character("k"), .arrow(.up, _):
            menu.highlighted = max(menu.highlighted - 1, 0)
        case .enter, .character(" "):
            chosen = menu.highlighted
        case .character(let character) where character.wholeNumberValue != nil:
            let number = character.wholeNumberValue ?? 0
            guard number >= 1, number <= labels.count else { return nil }
            chosen = number - 1
        case .escape, .character("q"), .character("#"), .control("c"):
            mode = .normal
            return nil
        default:
            return nil
        }
        guard let chosen else {
            mode = .choosingLabel(menu)
            return nil
        }
        mode = .normal
        let label = labels[chosen].id
        return .change(.setLabel(menu.card, label: label, isOn: !menu.card.labels.contains(label)))
    }

    // MARK: Selection

    private mutating func selectColumn(by step: Int) {
        guard let current = selectedColumn else { return }
        var column = current + step
        while board.columns.indices.contains(column), board.columns[column].isCollapsed { column += step }
        guard board.columns.indices.contains(column) else { return }
        moveSelection(toColumn: column, index: selection.index)
    }

    private mutating func selectCard(by step: Int) {
        guard selection.path != nil else { return }
        selectCard(at: selection.index + step)
    }

    private mutating func selectCard(at index: Int) {
        guard let column = selectedColumn else { return }
        moveSelection(toColumn: column, index: index)
    }

    private mutating func moveSelection(toColumn column: Int, index: Int) {
        let cards = shownCards(inColumn: column)
        let clamped = cards.isEmpty ? 0 : min(max(0, index), cards.count - 1)
        let card = cards.isEmpty ? nil : cards[clamped]
        selection = Selection(columnID: board.columns[column].id, path: card?.path, slug: card?.slug, index: clamped)
    }

    // MARK: Changes

    /// The selected card; without one, the status line says so.
    private mutating func requireSelectedCard() -> Card? {
        guard let card = selectedCard else {
            say("no card selected")
            return nil
        }
        return card
    }

    /// Moves the selected card to the bottom of the column `step` away (collapsed ones too), as `kanban move` does.
    private mutating func moveToColumn(by step: Int) -> TUIRequest? {
        guard let card = requireSelectedCard(), let column = selectedColumn,
              board.columns.indices.contains(column + step) else { return nil }
        return .change(.move(card, column: board.columns[column + step].id, placement: nil))
    }

    /// Moves the selected card past its neighbour above or below among the shown cards.
    private mutating func moveWithinColumn(by step: Int) -> TUIRequest? {
        guard let card = requireSelectedCard(), let column = selectedColumn else { return nil }
        let cards = shownCards(inColumn: column)
        let target = selection.index + step
        guard cards.indices.contains(target) else { return nil }
        let placement: Placement = step < 0 ? .before(cards[target].path) : .after(cards[target].path)
        return .change(.move(card, column: nil, placement: placement))
    }

    // MARK: Filter

    private mutating func setFilter(_ text: String) -> TUIRequest {
        let generation = (filter?.generation ?? 0) + 1
        guard !text.allSatisfy(\.isWhitespace) else {
            // Nothing typed yet (or all of it erased): every card shows.
            filter = Filter(text: text, matches: nil, generation: generation, problem: nil)
            replaceBoard(board)
            return .clearSearch
        }
        filter = Filter(text: text, matches: filter?.matches, generation: generation, problem: nil)
        return .search(text, generation: generation)
    }

    /// Asks the filter's query again (the board changed, and with it what matches), when there is one.
    mutating func refreshFilter() -> TUIRequest? {
        guard let filter, !filter.text.allSatisfy(\.isWhitespace) else { return nil }
        return setFilter(filter.text)
    }

    private mutating func clearFilter() -> TUIRequest {
        filter = nil
        replaceBoard(board)
        say("filter cleared")
        return .clearSearch
    }
}
